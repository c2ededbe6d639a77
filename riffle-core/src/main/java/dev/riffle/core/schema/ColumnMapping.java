package dev.riffle.core.schema;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.UnsupportedTableException;
import dev.riffle.core.types.ArrowTypeMapping;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.metadata.Schema;

/**
 * Where each column of a table's current schema sits in rows written under another schema id,
 * matched by Fluss column id (a name can be reused; an id cannot). A column the writer's schema
 * did not have reads as null; a column only the writer's schema has is dropped.
 *
 * <p>Fluss 0.9 changes a schema only by adding nullable columns at the end, so the mapping of an
 * older schema is "the same positions, then nulls"; matching by id keeps it right for renames and
 * drops should a later Fluss allow them.
 *
 * <pre>{@code
 * ColumnMapping mapping = ColumnMapping.between(writerSchema, tableSchema);
 * VectorSchemaRoot current = mapping.adapt(decodedWithWriterSchema, allocator); // takes ownership
 * }</pre>
 *
 * @param sourceIndexes for target column {@code i}, its position in the source, or -1 if absent
 * @param target the columns rows are returned with, as Arrow fields
 */
public record ColumnMapping(int[] sourceIndexes, List<Field> target) {

    public ColumnMapping {
        requireNonNull(sourceIndexes, "sourceIndexes is null");
        target = List.copyOf(requireNonNull(target, "target is null"));
        if (sourceIndexes.length != target.size()) {
            throw new IllegalArgumentException(sourceIndexes.length + " source indexes for " + target.size() + " columns");
        }
        sourceIndexes = sourceIndexes.clone();
    }

    /** The mapping from rows written with {@code source} to rows of {@code target}. */
    public static ColumnMapping between(Schema source, Schema target) {
        requireNonNull(source, "source is null");
        requireNonNull(target, "target is null");
        List<Integer> sourceIds = source.getColumnIds();
        List<Schema.Column> columns = target.getColumns();
        int[] indexes = new int[columns.size()];
        List<Field> fields = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            Schema.Column column = columns.get(i);
            int index = sourceIds.indexOf(column.getColumnId());
            if (index >= 0 && !source.getColumns().get(index).getDataType().copy(true)
                    .equals(column.getDataType().copy(true))) {
                throw new UnsupportedTableException("Column '" + column.getName() + "' (id " + column.getColumnId()
                        + ") changed type from " + source.getColumns().get(index).getDataType() + " to "
                        + column.getDataType() + "; Riffle reads schemas that only added columns");
            }
            indexes[i] = index;
            fields.add(ArrowTypeMapping.toArrowField(column.getName(), column.getDataType()));
        }
        return new ColumnMapping(indexes, fields);
    }

    /** Whether rows of the source are rows of the target as they are (same columns, same order). */
    public boolean isIdentity(int sourceColumns) {
        if (sourceColumns != sourceIndexes.length) {
            return false;
        }
        for (int i = 0; i < sourceIndexes.length; i++) {
            if (sourceIndexes[i] != i) {
                return false;
            }
        }
        return true;
    }

    /**
     * The rows of {@code source} with the target's columns: vectors of matched columns are moved
     * over (no copy), absent ones are all-null vectors from {@code allocator}, and the source's
     * other vectors are closed. Takes ownership of {@code source}; the caller owns the result.
     */
    public VectorSchemaRoot adapt(VectorSchemaRoot source, BufferAllocator allocator) {
        requireNonNull(source, "source is null");
        requireNonNull(allocator, "allocator is null");
        int rows = source.getRowCount();
        List<FieldVector> from = source.getFieldVectors();
        boolean[] used = new boolean[from.size()];
        List<FieldVector> vectors = new ArrayList<>(target.size());
        try {
            for (int i = 0; i < sourceIndexes.length; i++) {
                if (sourceIndexes[i] >= 0) {
                    vectors.add(from.get(sourceIndexes[i]));
                    used[sourceIndexes[i]] = true;
                } else {
                    vectors.add(nulls(target.get(i), rows, allocator));
                }
            }
        } catch (RuntimeException e) {
            for (int i = 0; i < vectors.size(); i++) {
                if (sourceIndexes[i] < 0) {
                    vectors.get(i).close();
                }
            }
            source.close();
            throw e;
        }
        for (int i = 0; i < from.size(); i++) {
            if (!used[i]) {
                from.get(i).close();
            }
        }
        return new VectorSchemaRoot(target, vectors, rows);
    }

    private static FieldVector nulls(Field field, int rows, BufferAllocator allocator) {
        FieldVector vector = field.createVector(allocator);
        try {
            vector.setInitialCapacity(rows);
            vector.allocateNew();
            vector.setValueCount(rows);
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
        return vector;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnMapping m && Arrays.equals(sourceIndexes, m.sourceIndexes) && target.equals(m.target);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sourceIndexes) * 31 + target.hashCode();
    }

    @Override
    public String toString() {
        return "ColumnMapping" + Arrays.toString(sourceIndexes);
    }
}
