package dev.riffle.pgwire.types;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;

/**
 * The bytes of one message body being built: a DataRow's cells or a COPY line. Cells are written
 * here by plain array stores (a channel buffer checks bounds and reference counts on every byte),
 * then the whole body goes to the channel in one copy. One per connection, reused row after row.
 *
 * <pre>{@code
 * RowBytes row = new RowBytes();
 * row.clear();
 * row.writeAscii("42");
 * channelBuffer.writeBytes(row.array(), 0, row.length());
 * }</pre>
 */
public final class RowBytes {
    private static final byte[] DIGIT_PAIRS = new byte[200];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
            DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    /** The most capacity kept between bodies. */
    static final int KEPT_BYTES = 1 << 20;

    private final int initialCapacity;
    private byte[] bytes;
    private int length;

    public RowBytes() {
        this(1024);
    }

    public RowBytes(int capacity) {
        this.initialCapacity = capacity;
        this.bytes = new byte[capacity];
    }

    /**
     * Empties the buffer for the next body. It keeps its capacity up to {@link #KEPT_BYTES}: an
     * array grown for one large row (a long string, a big array) is let go, so that it does not
     * stay with a connection that is left open for days.
     */
    public void clear() {
        length = 0;
        if (bytes.length > KEPT_BYTES) {
            bytes = new byte[initialCapacity];
        }
    }

    /** The capacity of the backing array (for tests of its growth and release). */
    int capacity() {
        return bytes.length;
    }

    /** How many bytes are written. */
    public int length() {
        return length;
    }

    /** Cuts the written bytes back to {@code length}. */
    public void truncate(int length) {
        if (length < 0 || length > this.length) {
            throw new IndexOutOfBoundsException("Cannot cut " + this.length + " bytes to " + length);
        }
        this.length = length;
    }

    /** The backing array; its first {@link #length()} bytes are the body. */
    public byte[] array() {
        return bytes;
    }

    public void writeByte(int value) {
        ensure(1);
        bytes[length++] = (byte) value;
    }

    public void writeBytes(byte[] source, int offset, int count) {
        ensure(count);
        System.arraycopy(source, offset, bytes, length, count);
        length += count;
    }

    public void writeBytes(byte[] source) {
        writeBytes(source, 0, source.length);
    }

    /** Copies {@code count} bytes of Arrow memory from {@code index} on. */
    public void writeBytes(ArrowBuf source, long index, int count) {
        ensure(count);
        source.getBytes(index, bytes, length, count);
        length += count;
    }

    /** Writes {@code text}, whose characters are all ASCII, a byte each. */
    public void writeAscii(String text) {
        int count = text.length();
        ensure(count);
        for (int i = 0; i < count; i++) {
            bytes[length + i] = (byte) text.charAt(i);
        }
        length += count;
    }

    /** Writes {@code text} as UTF-8. */
    public void writeUtf8(String text) {
        writeBytes(text.getBytes(UTF_8));
    }

    /** Writes {@code value} in decimal digits, as {@code Long.toString} does, without a String. */
    public void writeDecimal(long value) {
        if (value == Long.MIN_VALUE) {
            writeAscii(Long.toString(value));
            return;
        }
        int digits = 1;
        long magnitude = Math.abs(value);
        for (long bound = 10; digits < 19 && magnitude >= bound; bound *= 10) {
            digits++;
        }
        int count = digits + (value < 0 ? 1 : 0);
        ensure(count);
        if (value < 0) {
            bytes[length] = '-';
        }
        int at = length + count;
        // two digits per division; ints where the value fits, as their division is cheaper
        while (magnitude > Integer.MAX_VALUE) {
            long quotient = magnitude / 100;
            int pair = (int) (magnitude - quotient * 100) * 2;
            bytes[--at] = DIGIT_PAIRS[pair + 1];
            bytes[--at] = DIGIT_PAIRS[pair];
            magnitude = quotient;
        }
        int small = (int) magnitude;
        while (small >= 100) {
            int quotient = small / 100;
            int pair = (small - quotient * 100) * 2;
            bytes[--at] = DIGIT_PAIRS[pair + 1];
            bytes[--at] = DIGIT_PAIRS[pair];
            small = quotient;
        }
        if (small >= 10) {
            bytes[--at] = DIGIT_PAIRS[small * 2 + 1];
            bytes[--at] = DIGIT_PAIRS[small * 2];
        } else {
            bytes[--at] = (byte) ('0' + small);
        }
        length += count;
    }

    public void writeShort(int value) {
        ensure(2);
        bytes[length] = (byte) (value >>> 8);
        bytes[length + 1] = (byte) value;
        length += 2;
    }

    public void writeInt(int value) {
        ensure(4);
        setInt(length, value);
        length += 4;
    }

    public void writeLong(long value) {
        writeInt((int) (value >>> 32));
        writeInt((int) value);
    }

    /** Overwrites four written bytes at {@code index} with {@code value}, big-endian. */
    public void setInt(int index, int value) {
        bytes[index] = (byte) (value >>> 24);
        bytes[index + 1] = (byte) (value >>> 16);
        bytes[index + 2] = (byte) (value >>> 8);
        bytes[index + 3] = (byte) value;
    }

    private void ensure(int count) {
        if (length + count > bytes.length) {
            if (length + count < 0) {
                throw new IllegalStateException("A row of more than 2 GB cannot be sent");
            }
            bytes = Arrays.copyOf(bytes, Math.max(length + count, bytes.length * 2));
        }
    }
}
