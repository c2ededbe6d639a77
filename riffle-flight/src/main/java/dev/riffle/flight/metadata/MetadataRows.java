package dev.riffle.flight.metadata;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Rows of a Flight SQL metadata answer (the fixed schemas of GetTables, GetDbSchemas,
 * GetPrimaryKeys, GetXdbcTypeInfo, ...) as one Arrow batch: each row is an array of cells in the
 * schema's order, a cell a {@code String}, {@code Integer}, {@code Boolean}, {@code byte[]},
 * {@code List<String>} or {@code null}.
 *
 * <pre>{@code
 * try (VectorSchemaRoot root = MetadataRows.of(Schemas.GET_SCHEMAS_SCHEMA, List.of(new Object[] {null, "shop"}), allocator)) { ... }
 * }</pre>
 */
final class MetadataRows {
    private MetadataRows() {}

    /** A new root, the caller's to close, holding {@code rows}. */
    static VectorSchemaRoot of(Schema schema, List<Object[]> rows, BufferAllocator allocator) {
        requireNonNull(schema, "schema is null");
        requireNonNull(rows, "rows is null");
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            root.allocateNew();
            List<FieldVector> vectors = root.getFieldVectors();
            for (int r = 0; r < rows.size(); r++) {
                Object[] row = rows.get(r);
                if (row.length != vectors.size()) {
                    throw new IllegalArgumentException("A metadata row has " + row.length + " cells for "
                            + vectors.size() + " columns");
                }
                for (int c = 0; c < row.length; c++) {
                    set(vectors.get(c), r, row[c]);
                }
            }
            root.setRowCount(rows.size());
            return root;
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
    }

    private static void set(FieldVector vector, int row, Object value) {
        if (value == null) {
            if (vector instanceof ListVector list) {
                list.setNull(row);
            } else {
                vector.setNull(row);
            }
            return;
        }
        if (vector instanceof VarCharVector v) {
            v.setSafe(row, ((String) value).getBytes(StandardCharsets.UTF_8));
        } else if (vector instanceof IntVector v) {
            v.setSafe(row, (Integer) value);
        } else if (vector instanceof UInt1Vector v) {
            v.setSafe(row, (Integer) value);
        } else if (vector instanceof BitVector v) {
            v.setSafe(row, (Boolean) value ? 1 : 0);
        } else if (vector instanceof VarBinaryVector v) {
            v.setSafe(row, (byte[]) value);
        } else if (vector instanceof ListVector v) {
            UnionListWriter writer = v.getWriter();
            writer.setPosition(row);
            writer.startList();
            for (Object item : (List<?>) value) {
                byte[] bytes = ((String) item).getBytes(StandardCharsets.UTF_8);
                try (org.apache.arrow.memory.ArrowBuf buffer = v.getAllocator().buffer(bytes.length)) {
                    buffer.setBytes(0, bytes);
                    writer.varChar().writeVarChar(0, bytes.length, buffer);
                }
            }
            writer.endList();
        } else {
            throw new IllegalArgumentException("No metadata cell writer for " + vector.getField());
        }
    }
}
