package dev.riffle.pgwire.copy;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.values.FlussValueSink;
import dev.riffle.pgwire.error.PgException;
import dev.riffle.pgwire.types.PgTextValueReader;
import dev.riffle.pgwire.types.PgTypeNames;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;

/**
 * Turns the rows COPY FROM reads into whole Fluss rows of one table: each field, in PostgreSQL's
 * text form, read for its column's type by {@link PgTextValueReader} into the value layer's
 * {@link FlussValueSink} (so a value is checked by the rules every Riffle write follows); columns
 * the COPY does not name are NULL. Every failure names the line and the column: 22P02 for a value
 * that is not one of its type, 23502 for a NULL in a primary-key or NOT NULL column, 22P04 for a
 * line with too few or too many fields.
 *
 * <pre>{@code
 * CopyRowDecoder decoder = CopyRowDecoder.of(tableInfo, List.of("id", "name"));
 * GenericRow row = decoder.decode(new CopyLineReader.Row(1, List.of(Optional.of("7"), Optional.of("ann"))));
 * }</pre>
 */
public final class CopyRowDecoder {
    private final TableInfo table;
    private final List<String> columns;
    private final int[] positions;
    private final DataType[] types;
    private final boolean[] required;
    private final FlussValueSink[] sinks;
    private final int width;

    private CopyRowDecoder(TableInfo table, List<String> columns, int[] positions) {
        this.table = table;
        this.columns = List.copyOf(columns);
        this.positions = positions;
        RowType rowType = table.getRowType();
        this.width = rowType.getFieldCount();
        this.types = new DataType[positions.length];
        this.required = new boolean[positions.length];
        this.sinks = new FlussValueSink[positions.length];
        for (int i = 0; i < positions.length; i++) {
            types[i] = rowType.getTypeAt(positions[i]);
            required[i] = !types[i].isNullable() || table.getPrimaryKeys().contains(columns.get(i));
            sinks[i] = new FlussValueSink(types[i]);
        }
    }

    /**
     * The decoder for COPY into {@code table} of {@code columns} (given as written; empty: every
     * column in table order), resolved against the table's columns (exactly, else ignoring case).
     *
     * @throws PgException 42703 for an unknown or repeated column, 23502 when a primary-key or NOT NULL
     *     column is left out, 0A000 for a MAP or ROW column
     */
    public static CopyRowDecoder of(TableInfo table, List<String> columns) {
        requireNonNull(table, "table is null");
        requireNonNull(columns, "columns is null");
        List<String> names = table.getRowType().getFieldNames();
        List<String> resolved = new ArrayList<>();
        if (columns.isEmpty()) {
            resolved.addAll(names);
        } else {
            Set<String> seen = new LinkedHashSet<>();
            for (String column : columns) {
                String name = resolve(table, names, column);
                if (!seen.add(name)) {
                    throw new PgException("42701", "column \"" + name + "\" specified more than once");
                }
                resolved.add(name);
            }
        }
        int[] positions = new int[resolved.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = names.indexOf(resolved.get(i));
            DataType type = table.getRowType().getTypeAt(positions[i]);
            if (!PgTextValueReader.readable(type)) {
                throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle's COPY FROM does not read column \""
                        + resolved.get(i) + "\" of type " + PgTypeNames.format(type)
                        + " (MAP and ROW); leave it out of the column list or write it with INSERT");
            }
        }
        for (int p = 0; p < names.size(); p++) {
            String name = names.get(p);
            boolean key = table.getPrimaryKeys().contains(name);
            if (!resolved.contains(name) && (key || !table.getRowType().getTypeAt(p).isNullable())) {
                throw new PgException("23502", "column \"" + name + "\" of " + table.getTablePath() + " is "
                        + (key ? "part of the primary key" : "NOT NULL") + " and must be in the COPY column list");
            }
        }
        return new CopyRowDecoder(table, resolved, positions);
    }

    private static String resolve(TableInfo table, List<String> names, String column) {
        if (names.contains(column)) {
            return column;
        }
        List<String> folded = names.stream().filter(n -> n.equalsIgnoreCase(column)).toList();
        if (folded.size() == 1) {
            return folded.get(0);
        }
        throw new PgException("42703", "column \"" + column + "\" of " + table.getTablePath()
                + " does not exist; its columns: " + names);
    }

    /** The columns a line holds, in order. */
    public List<String> columns() {
        return columns;
    }

    /**
     * {@code row} as a whole Fluss row of the table.
     *
     * @throws PgException naming the line and the column when a field is not a value of its column
     */
    public GenericRow decode(CopyLineReader.Row row) {
        List<Optional<String>> fields = row.fields();
        if (fields.size() < positions.length) {
            throw new PgException("22P04", "missing data for column \"" + columns.get(fields.size()) + "\""
                    + where(row.line(), Optional.empty()));
        }
        if (fields.size() > positions.length) {
            throw new PgException("22P04", "extra data after last expected column" + where(row.line(),
                    Optional.empty()));
        }
        GenericRow out = new GenericRow(width);
        for (int i = 0; i < positions.length; i++) {
            Optional<String> field = fields.get(i);
            if (field.isEmpty()) {
                if (required[i]) {
                    throw new PgException("23502", "null value in column \"" + columns.get(i) + "\" of relation \""
                            + table.getTablePath() + "\" violates not-null constraint" + where(row.line(),
                                    Optional.of(i)));
                }
                continue;
            }
            try {
                PgTextValueReader.read(field.get(), types[i], sinks[i]);
                out.setField(positions[i], sinks[i].take());
            } catch (InvalidValueException e) {
                sinks[i] = new FlussValueSink(types[i]); // a failed nested value leaves the sink mid-way
                throw new PgException("22P02", e.getMessage() + where(row.line(), Optional.of(i)));
            }
        }
        return out;
    }

    private String where(long line, Optional<Integer> column) {
        return " (COPY " + table.getTablePath() + ", line " + line
                + column.map(c -> ", column " + columns.get(c)).orElse("") + ")";
    }
}
