package dev.riffle.pgwire.types;

/**
 * Writes one Arrow column's values into the bytes a DataRow or COPY line is built in, in
 * PostgreSQL's text ({@link PgTextColumn}) or binary ({@link PgBinaryColumn}) form.
 *
 * <pre>{@code
 * PgColumnWriter cells = formats.get(c) == 1 ? PgBinaryColumn.of(vector, type) : PgTextColumn.of(vector);
 * boolean present = cells.write(row, out);
 * }</pre>
 */
public sealed interface PgColumnWriter permits PgTextColumn, PgBinaryColumn {
    /** Writes the value at {@code row} into {@code out}; false (and nothing written) for NULL. */
    boolean write(int row, RowBytes out);
}
