package dev.riffle.pgwire.types;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's binary forms (what {@code *_send} writes and {@code *_recv} reads): big-endian
 * integers and IEEE floats, dates as days and times and timestamps as microseconds since
 * 2000-01-01 (integer datetimes), numeric as base-10000 digits.
 *
 * <pre>{@code
 * byte[] wire = PgBinary.numeric(new BigDecimal("-12.50"));
 * PgBinary.readNumeric(wire)   // -12.50
 * }</pre>
 */
public final class PgBinary {
    /** 2000-01-01 as days since 1970-01-01: PostgreSQL's epoch for dates and timestamps. */
    public static final int PG_EPOCH_DAY = 10_957;
    /** 2000-01-01T00:00Z as seconds since 1970-01-01. */
    public static final long PG_EPOCH_SECOND = PG_EPOCH_DAY * 86_400L;
    private static final short NUMERIC_POSITIVE = 0x0000;
    private static final short NUMERIC_NEGATIVE = 0x4000;
    private static final short NUMERIC_NAN = (short) 0xC000;
    private static final BigInteger TEN_THOUSAND = BigInteger.valueOf(10_000);

    private PgBinary() {}

    // Big-endian by hand: these run for every cell of a binary result, and a ByteBuffer per cell
    // was a measurable share of a scan's server time.
    public static byte[] int2(short value) {
        return new byte[] {(byte) (value >> 8), (byte) value};
    }

    public static byte[] int4(int value) {
        return new byte[] {(byte) (value >> 24), (byte) (value >> 16), (byte) (value >> 8), (byte) value};
    }

    public static byte[] int8(long value) {
        return new byte[] {(byte) (value >> 56), (byte) (value >> 48), (byte) (value >> 40), (byte) (value >> 32),
                (byte) (value >> 24), (byte) (value >> 16), (byte) (value >> 8), (byte) value};
    }

    /** A date: days since 2000-01-01. */
    public static byte[] date(int epochDay) {
        return int4(epochDay - PG_EPOCH_DAY);
    }

    /** A time of day: microseconds since midnight (sub-microsecond digits are truncated). */
    public static byte[] time(long nanoOfDay) {
        return int8(nanoOfDay / 1_000);
    }

    /** A timestamp or timestamptz: microseconds since 2000-01-01T00:00 (UTC for timestamptz). */
    public static byte[] timestamp(long epochSecond, int nanoOfSecond) {
        return int8(Math.addExact(Math.multiplyExact(epochSecond - PG_EPOCH_SECOND, 1_000_000L), nanoOfSecond / 1_000));
    }

    /** A numeric: ndigits, weight, sign, dscale (int16 each), then ndigits base-10000 digits. */
    public static byte[] numeric(BigDecimal value) {
        BigDecimal positive = value.abs();
        int scale = Math.max(0, positive.scale());
        positive = positive.setScale(scale);
        List<Short> digits = new ArrayList<>();
        int weight;
        if (positive.signum() == 0) {
            weight = 0;
        } else {
            // Shift the fraction to a whole multiple of four digits, then take base-10000 digits.
            int fractionGroups = (scale + 3) / 4;
            BigInteger whole = positive.movePointRight(fractionGroups * 4).toBigIntegerExact();
            List<Short> reversed = new ArrayList<>();
            while (whole.signum() > 0) {
                BigInteger[] divided = whole.divideAndRemainder(TEN_THOUSAND);
                reversed.add(divided[1].shortValue());
                whole = divided[0];
            }
            for (int i = reversed.size() - 1; i >= 0; i--) {
                digits.add(reversed.get(i));
            }
            weight = digits.size() - fractionGroups - 1;
            while (!digits.isEmpty() && digits.get(digits.size() - 1) == 0) {
                digits.remove(digits.size() - 1);
            }
        }
        ByteBuffer out = ByteBuffer.allocate(8 + 2 * digits.size());
        out.putShort((short) digits.size());
        out.putShort((short) weight);
        out.putShort(value.signum() < 0 ? NUMERIC_NEGATIVE : NUMERIC_POSITIVE);
        out.putShort((short) scale);
        for (short digit : digits) {
            out.putShort(digit);
        }
        return out.array();
    }

    /** The numeric {@link #numeric} writes. */
    public static BigDecimal readNumeric(byte[] wire) {
        ByteBuffer in = ByteBuffer.wrap(wire);
        if (wire.length < 8) {
            throw new IllegalArgumentException("A binary numeric has at least 8 bytes, got " + wire.length);
        }
        int count = in.getShort();
        int weight = in.getShort();
        short sign = in.getShort();
        int scale = in.getShort();
        if (sign == NUMERIC_NAN) {
            throw new IllegalArgumentException("NaN is not a DECIMAL value");
        }
        if (count < 0 || wire.length != 8 + 2 * count) {
            throw new IllegalArgumentException("A binary numeric of " + count + " digits has " + (8 + 2 * count)
                    + " bytes, got " + wire.length);
        }
        BigInteger unscaled = BigInteger.ZERO;
        for (int i = 0; i < count; i++) {
            unscaled = unscaled.multiply(TEN_THOUSAND).add(BigInteger.valueOf(in.getShort()));
        }
        // The digits read so far stand for unscaled * 10000^(weight - count + 1).
        BigDecimal value = new BigDecimal(unscaled).movePointRight(4 * (weight - count + 1));
        value = value.setScale(scale, java.math.RoundingMode.UNNECESSARY);
        return sign == NUMERIC_NEGATIVE ? value.negate() : value;
    }
}
