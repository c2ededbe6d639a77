package dev.riffle.core.types;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;

/**
 * Where a table's columns are in Arrow batches that Fluss's writer can take as they are, each
 * row through an {@link ArrowRowView} (Fluss's {@code AppendWriter} copies a row into its own
 * batch as it is appended), without a value object per cell. That holds when every column of the
 * table is in the batch, not dictionary-encoded, in exactly the Arrow type Riffle reads the
 * column as ({@link ArrowTypeMapping}), and of a type whose every Arrow value the column holds:
 * not DECIMAL, CHAR or BINARY (a value may have more digits or bytes than the column takes), not
 * nested. Other batches are converted value by value, with the checks that needs.
 *
 * <pre>{@code
 * Optional<int[]> layout = ArrowWriteLayout.of(table.getRowType(), batch.getSchema().getFields());
 * if (layout.isPresent()) {
 *     ArrowRowView row = new ArrowRowView(batch, layout.get());
 *     for (int i = 0; i < batch.getRowCount(); i++) writer.append(row.at(i));
 * }
 * }</pre>
 */
public final class ArrowWriteLayout {
    private ArrowWriteLayout() {}

    /**
     * For each column of {@code rowType}, the index of its field among {@code fields}, the fields
     * matched to columns by name; empty when the batches are not written as they are.
     */
    public static Optional<int[]> of(RowType rowType, List<Field> fields) {
        int[] columnOfField = new int[fields.size()];
        for (int f = 0; f < fields.size(); f++) {
            columnOfField[f] = rowType.getFieldIndex(fields.get(f).getName());
        }
        return of(rowType, fields, columnOfField);
    }

    /**
     * As {@link #of(RowType, List)}, field {@code f} going to column {@code columnOfField[f]}
     * (-1: none), as a prepared INSERT's parameters go to its listed columns whatever they are named.
     */
    public static Optional<int[]> of(RowType rowType, List<Field> fields, int[] columnOfField) {
        int[] layout = new int[rowType.getFieldCount()];
        Arrays.fill(layout, -1);
        for (int f = 0; f < columnOfField.length; f++) {
            int column = columnOfField[f];
            if (column < 0 || layout[column] >= 0) {
                return Optional.empty();
            }
            layout[column] = f;
        }
        List<Field> expected = ArrowTypeMapping.toArrowSchema(rowType).getFields();
        for (int column = 0; column < layout.length; column++) {
            if (layout[column] < 0 || !holdsEveryValue(rowType.getTypeAt(column))) {
                return Optional.empty();
            }
            Field field = fields.get(layout[column]);
            if (field.getDictionary() != null || !field.getType().equals(expected.get(column).getType())) {
                return Optional.empty();
            }
        }
        return Optional.of(layout);
    }

    /**
     * A view of {@code batch}'s vectors in the table's column order ({@code layout[column]} is the
     * column's vector, as {@link #of} gives it), as {@code ArrowLogAppender} takes batches. It shares
     * the vectors: it is not to be closed (whoever owns {@code batch} closes them).
     */
    public static VectorSchemaRoot inTableOrder(VectorSchemaRoot batch, int[] layout) {
        List<FieldVector> vectors = new ArrayList<>(layout.length);
        for (int field : layout) {
            vectors.add(batch.getVector(field));
        }
        return new VectorSchemaRoot(vectors.stream().map(FieldVector::getField).toList(), vectors,
                batch.getRowCount());
    }

    /** The first of the first {@code rows} rows at which {@code vector} is null. */
    public static OptionalInt firstNull(FieldVector vector, int rows) {
        if (vector.getNullCount() == 0) {
            return OptionalInt.empty();
        }
        for (int row = 0; row < rows; row++) {
            if (vector.isNull(row)) {
                return OptionalInt.of(row);
            }
        }
        return OptionalInt.empty();
    }

    private static boolean holdsEveryValue(DataType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE, STRING, BYTES, DATE,
                    TIME_WITHOUT_TIME_ZONE, TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> true;
            default -> false;
        };
    }
}
