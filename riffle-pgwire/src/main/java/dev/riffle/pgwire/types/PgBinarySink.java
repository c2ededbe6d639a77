package dev.riffle.pgwire.types;

import dev.riffle.core.values.ValueSink;
import dev.riffle.sql.dialect.PgType;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

/**
 * One value of a column in PostgreSQL's binary format, for the column's wire type (a TINYINT is
 * an int2, so it is written in two bytes, whatever width the value layer reports it at). Nested
 * arrays are one-dimensional binary arrays of the element type; maps and rows are json, whose
 * binary form is its text. Arrays of arrays are sent in text only ({@link ColumnType#binaryCapable()}).
 *
 * <pre>{@code
 * PgBinarySink binary = new PgBinarySink(PgType.INT2);
 * reader.read(row, binary);
 * Optional<byte[]> cell = binary.take();
 * }</pre>
 */
public final class PgBinarySink implements ValueSink {
    private final PgType type;
    private byte[] bytes;
    private final PgTextSink jsonText = new PgTextSink();
    private int jsonDepth;
    /** The elements of the array being read, or null outside an array. */
    private List<Optional<byte[]>> elements;

    public PgBinarySink(PgType type) {
        this.type = requireNonNull(type, "type is null");
    }

    /** The bytes of the value read last, empty for NULL. */
    public Optional<byte[]> take() {
        byte[] value = bytes;
        bytes = null;
        return Optional.ofNullable(value);
    }

    @Override
    public void nullValue() {
        if (jsonDepth > 0) {
            jsonText.nullValue();
            return;
        }
        put(null);
    }

    @Override
    public void booleanValue(boolean value) {
        if (jsonDepth > 0) {
            jsonText.booleanValue(value);
            return;
        }
        put(new byte[] {(byte) (value ? 1 : 0)});
    }

    @Override
    public void integerValue(long value) {
        if (jsonDepth > 0) {
            jsonText.integerValue(value);
            return;
        }
        put(switch (type) {
            case INT2 -> PgBinary.int2((short) value);
            case INT4 -> PgBinary.int4((int) value);
            case INT8 -> PgBinary.int8(value);
            default -> throw mismatch("an integer");
        });
    }

    @Override
    public void floatValue(float value) {
        if (jsonDepth > 0) {
            jsonText.floatValue(value);
            return;
        }
        put(PgBinary.int4(Float.floatToRawIntBits(value)));
    }

    @Override
    public void doubleValue(double value) {
        if (jsonDepth > 0) {
            jsonText.doubleValue(value);
            return;
        }
        put(PgBinary.int8(Double.doubleToRawLongBits(value)));
    }

    @Override
    public void decimalValue(BigDecimal value) {
        if (jsonDepth > 0) {
            jsonText.decimalValue(value);
            return;
        }
        put(PgBinary.numeric(value));
    }

    @Override
    public void stringValue(String value) {
        if (jsonDepth > 0) {
            jsonText.stringValue(value);
            return;
        }
        put(value.getBytes(UTF_8));
    }

    @Override
    public void binaryValue(byte[] value) {
        if (jsonDepth > 0) {
            jsonText.binaryValue(value);
            return;
        }
        put(value.clone());
    }

    @Override
    public void dateValue(int epochDay) {
        if (jsonDepth > 0) {
            jsonText.dateValue(epochDay);
            return;
        }
        put(PgBinary.date(epochDay));
    }

    @Override
    public void timeValue(long nanoOfDay) {
        if (jsonDepth > 0) {
            jsonText.timeValue(nanoOfDay);
            return;
        }
        put(PgBinary.time(nanoOfDay));
    }

    @Override
    public void timestampValue(long epochSecond, int nanoOfSecond) {
        if (jsonDepth > 0) {
            jsonText.timestampValue(epochSecond, nanoOfSecond);
            return;
        }
        put(PgBinary.timestamp(epochSecond, nanoOfSecond));
    }

    @Override
    public void instantValue(long epochSecond, int nanoOfSecond) {
        if (jsonDepth > 0) {
            jsonText.instantValue(epochSecond, nanoOfSecond);
            return;
        }
        put(PgBinary.timestamp(epochSecond, nanoOfSecond));
    }

    // json's binary form is its text: maps and rows are written as JSON text, then sent as bytes.

    @Override
    public void startArray(int size) {
        if (jsonDepth > 0) {
            jsonDepth++;
            jsonText.startArray(size);
            return;
        }
        if (elements != null) {
            throw new UnsupportedOperationException("Arrays of arrays are sent in text format only; ask for text results");
        }
        elements = new ArrayList<>(size);
    }

    @Override
    public void endArray() {
        if (jsonDepth > 0) {
            jsonDepth--;
            jsonText.endArray();
            return;
        }
        List<Optional<byte[]>> items = elements;
        elements = null;
        bytes = array(items);
    }

    /** A one-dimensional array: ndim, has-null flag, element OID, size and lower bound, then each element. */
    private byte[] array(List<Optional<byte[]>> items) {
        int length = 20;
        boolean nulls = false;
        for (Optional<byte[]> item : items) {
            length += 4 + item.map(b -> b.length).orElse(0);
            nulls |= item.isEmpty();
        }
        ByteBuffer out = ByteBuffer.allocate(length);
        out.putInt(1).putInt(nulls ? 1 : 0).putInt(type.oid()).putInt(items.size()).putInt(1);
        for (Optional<byte[]> item : items) {
            if (item.isEmpty()) {
                out.putInt(-1);
            } else {
                out.putInt(item.get().length).put(item.get());
            }
        }
        return out.array();
    }

    private void put(byte[] value) {
        if (elements != null) {
            elements.add(Optional.ofNullable(value));
        } else {
            bytes = value;
        }
    }

    @Override
    public void startMap(int size) {
        jsonDepth++;
        jsonText.startMap(size);
    }

    @Override
    public void endMap() {
        jsonText.endMap();
        endJson();
    }

    @Override
    public void startRow(int fieldCount) {
        jsonDepth++;
        jsonText.startRow(fieldCount);
    }

    @Override
    public void fieldName(String name) {
        jsonText.fieldName(name);
    }

    @Override
    public void endRow() {
        jsonText.endRow();
        endJson();
    }

    private void endJson() {
        if (--jsonDepth == 0) {
            put(jsonText.take().orElseThrow().getBytes(UTF_8));
        }
    }

    private IllegalStateException mismatch(String what) {
        return new IllegalStateException("Column of type " + type.typeName() + " received " + what);
    }
}
