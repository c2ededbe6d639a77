package dev.riffle.pgwire.types;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.sql.dialect.PgType;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * One Arrow column's values in PostgreSQL's binary form for the column's wire type, written
 * straight into the {@link RowBytes} a DataRow is built in. Where the vector holds the wire type's own
 * representation (an int4 in an {@code IntVector}, a float8 in a {@code Float8Vector}, text in a
 * {@code VarCharVector}) the value is copied without an object per value; every other pairing
 * goes through the value layer and {@link PgBinarySink}, which converts (a TINYINT is an int2).
 *
 * <pre>{@code
 * PgBinaryColumn amount = PgBinaryColumn.of(root.getVector("amount"), PgType.FLOAT8);
 * if (!amount.write(row, out)) { ... }   // NULL: nothing was written
 * }</pre>
 */
public abstract sealed class PgBinaryColumn implements PgColumnWriter {
    /** Wire types whose binary form is the text's UTF-8 bytes. */
    private static final Set<PgType> TEXT_TYPES = Set.of(PgType.TEXT, PgType.VARCHAR, PgType.BPCHAR, PgType.NAME,
            PgType.JSON);

    private PgBinaryColumn() {}

    /** The writer for {@code vector}'s values sent as {@code type}. */
    public static PgBinaryColumn of(FieldVector vector, PgType type) {
        requireNonNull(type, "type is null");
        if (vector instanceof IntVector ints && type == PgType.INT4) {
            return new Int4(ints);
        } else if (vector instanceof BigIntVector longs && type == PgType.INT8) {
            return new Int8(longs);
        } else if (vector instanceof SmallIntVector shorts && type == PgType.INT2) {
            return new Int2(shorts);
        } else if (vector instanceof Float8Vector doubles && type == PgType.FLOAT8) {
            return new Float8(doubles);
        } else if (vector instanceof Float4Vector floats && type == PgType.FLOAT4) {
            return new Float4(floats);
        } else if (vector instanceof VarCharVector && TEXT_TYPES.contains(type)) {
            return new Text(PgTextColumn.of(vector));
        }
        return new Values(vector, type);
    }

    private static final class Int4 extends PgBinaryColumn {
        private final IntVector vector;

        Int4(IntVector vector) {
            this.vector = vector;
        }

        @Override
        public boolean write(int row, RowBytes out) {
            if (vector.isNull(row)) {
                return false;
            }
            out.writeInt(vector.get(row));
            return true;
        }
    }

    private static final class Int8 extends PgBinaryColumn {
        private final BigIntVector vector;

        Int8(BigIntVector vector) {
            this.vector = vector;
        }

        @Override
        public boolean write(int row, RowBytes out) {
            if (vector.isNull(row)) {
                return false;
            }
            out.writeLong(vector.get(row));
            return true;
        }
    }

    private static final class Int2 extends PgBinaryColumn {
        private final SmallIntVector vector;

        Int2(SmallIntVector vector) {
            this.vector = vector;
        }

        @Override
        public boolean write(int row, RowBytes out) {
            if (vector.isNull(row)) {
                return false;
            }
            out.writeShort(vector.get(row));
            return true;
        }
    }

    private static final class Float8 extends PgBinaryColumn {
        private final Float8Vector vector;

        Float8(Float8Vector vector) {
            this.vector = vector;
        }

        @Override
        public boolean write(int row, RowBytes out) {
            if (vector.isNull(row)) {
                return false;
            }
            out.writeLong(Double.doubleToRawLongBits(vector.get(row)));
            return true;
        }
    }

    private static final class Float4 extends PgBinaryColumn {
        private final Float4Vector vector;

        Float4(Float4Vector vector) {
            this.vector = vector;
        }

        @Override
        public boolean write(int row, RowBytes out) {
            if (vector.isNull(row)) {
                return false;
            }
            out.writeInt(Float.floatToRawIntBits(vector.get(row)));
            return true;
        }
    }

    /** Text-like wire types: the binary form is the text. */
    private static final class Text extends PgBinaryColumn {
        private final PgTextColumn text;

        Text(PgTextColumn text) {
            this.text = text;
        }

        @Override
        public boolean write(int row, RowBytes out) {
            return text.write(row, out);
        }
    }

    /** Any other pairing, through the value layer. */
    private static final class Values extends PgBinaryColumn {
        private final ArrowValueReader reader;
        private final PgBinarySink binary;

        Values(FieldVector vector, PgType type) {
            this.reader = ArrowValueReader.of(vector);
            this.binary = new PgBinarySink(type);
        }

        @Override
        public boolean write(int row, RowBytes out) {
            reader.read(row, binary);
            Optional<byte[]> value = binary.take();
            value.ifPresent(bytes -> out.writeBytes(bytes));
            return value.isPresent();
        }
    }
}
