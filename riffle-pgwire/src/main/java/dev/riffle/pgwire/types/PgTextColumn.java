package dev.riffle.pgwire.types;

import dev.riffle.core.values.ArrowValueReader;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * One Arrow column's values in PostgreSQL's text form, written as bytes straight into the
 * {@link RowBytes} a DataRow or a COPY line is built in. Integers, floats, booleans and strings are written from
 * the vector without an object per value (a string's UTF-8 bytes are copied as Arrow holds them);
 * every other type goes through the value layer and {@link PgTextSink}, so both give the same text.
 *
 * <pre>{@code
 * PgTextColumn id = PgTextColumn.of(root.getVector("id"));
 * if (!id.write(row, out)) { ... }   // NULL: nothing was written
 * }</pre>
 */
public abstract sealed class PgTextColumn implements PgColumnWriter {
    private final boolean number;

    private PgTextColumn(boolean number) {
        this.number = number;
    }

    /** Whether the text is a number's or a boolean's: digits, sign, point, exponent, NaN, Infinity, t, f. */
    public boolean number() {
        return number;
    }

    /** The writer for {@code vector}'s values. */
    public static PgTextColumn of(FieldVector vector) {
        if (vector instanceof IntVector || vector instanceof BigIntVector || vector instanceof SmallIntVector
                || vector instanceof TinyIntVector) {
            return new Integers((BaseIntVector) vector);
        } else if (vector instanceof Float8Vector doubles) {
            return new Doubles(doubles);
        } else if (vector instanceof Float4Vector floats) {
            return new Floats(floats);
        } else if (vector instanceof BitVector bits) {
            return new Booleans(bits);
        } else if (vector instanceof VarCharVector strings) {
            return new Strings(strings);
        }
        return new Values(vector);
    }

    private static final class Integers extends PgTextColumn {
        private final BaseIntVector vector;

        Integers(BaseIntVector vector) {
            super(true);
            this.vector = vector;
        }

        @Override
        public boolean write(int row, RowBytes out) {
            if (vector.isNull(row)) {
                return false;
            }
            out.writeDecimal(vector.getValueAsLong(row));
            return true;
        }
    }

    private static final class Doubles extends PgTextColumn {
        private final Float8Vector vector;

        Doubles(Float8Vector vector) {
            super(true);
            this.vector = vector;
        }

        @Override
        public boolean write(int row, RowBytes out) {
            if (vector.isNull(row)) {
                return false;
            }
            PgText.writeFloat8(vector.get(row), out);
            return true;
        }
    }

    private static final class Floats extends PgTextColumn {
        private final Float4Vector vector;

        Floats(Float4Vector vector) {
            super(true);
            this.vector = vector;
        }

        @Override
        public boolean write(int row, RowBytes out) {
            if (vector.isNull(row)) {
                return false;
            }
            out.writeAscii(PgText.float4(vector.get(row)));
            return true;
        }
    }

    private static final class Booleans extends PgTextColumn {
        private final BitVector vector;

        Booleans(BitVector vector) {
            super(true);
            this.vector = vector;
        }

        @Override
        public boolean write(int row, RowBytes out) {
            if (vector.isNull(row)) {
                return false;
            }
            out.writeByte(vector.get(row) != 0 ? 't' : 'f');
            return true;
        }
    }

    private static final class Strings extends PgTextColumn {
        private final VarCharVector vector;

        Strings(VarCharVector vector) {
            super(false);
            this.vector = vector;
        }

        @Override
        public boolean write(int row, RowBytes out) {
            if (vector.isNull(row)) {
                return false;
            }
            ArrowBuf offsets = vector.getOffsetBuffer();
            int start = offsets.getInt((long) row * VarCharVector.OFFSET_WIDTH);
            int length = offsets.getInt((long) (row + 1) * VarCharVector.OFFSET_WIDTH) - start;
            out.writeBytes(vector.getDataBuffer(), start, length);
            return true;
        }
    }

    /** Any other type, through the value layer. */
    private static final class Values extends PgTextColumn {
        private final ArrowValueReader reader;
        private final PgTextSink text = new PgTextSink();

        Values(FieldVector vector) {
            super(false);
            this.reader = ArrowValueReader.of(vector);
        }

        @Override
        public boolean write(int row, RowBytes out) {
            reader.read(row, text);
            Optional<String> value = text.take();
            value.ifPresent(out::writeUtf8);
            return value.isPresent();
        }
    }
}
