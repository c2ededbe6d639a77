package dev.riffle.pgwire.types;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * PostgreSQL's text forms of scalar values, as a PostgreSQL 15 server with {@code DateStyle ISO},
 * {@code TimeZone UTC} and {@code extra_float_digits 1} prints them: booleans {@code t}/{@code f},
 * bytea {@code \x0a0b}, timestamps {@code 2024-06-01 12:00:00.123456} (trailing fraction zeros
 * dropped), timestamptz with {@code +00}, floats in their shortest exact form ({@code 0.1},
 * {@code 1e+15}, {@code NaN}, {@code Infinity}). Sub-microsecond digits of Fluss's nanosecond
 * timestamps are kept (PostgreSQL stores microseconds; clients parse up to nine digits).
 *
 * <pre>{@code
 * PgText.timestamp(1_717_243_200L, 120_000_000)   // "2024-06-01 12:00:00.12"
 * }</pre>
 */
public final class PgText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PgText() {}

    public static String bool(boolean value) {
        return value ? "t" : "f";
    }

    public static String float4(float value) {
        return Float.isFinite(value) ? shortest(Float.toString(value), value == 0 && 1 / value < 0, 6)
                : nonFinite(value);
    }

    public static String float8(double value) {
        return Double.isFinite(value) ? shortest(Double.toString(value), value == 0 && 1 / value < 0, 15)
                : nonFinite(value);
    }

    public static String numeric(BigDecimal value) {
        return value.toPlainString();
    }

    public static String bytea(byte[] value) {
        char[] text = new char[2 + value.length * 2];
        text[0] = '\\';
        text[1] = 'x';
        for (int i = 0; i < value.length; i++) {
            text[2 + 2 * i] = HEX[(value[i] >> 4) & 0xf];
            text[3 + 2 * i] = HEX[value[i] & 0xf];
        }
        return new String(text);
    }

    public static String date(int epochDay) {
        return date(LocalDate.ofEpochDay(epochDay));
    }

    public static String time(long nanoOfDay) {
        return time(LocalTime.ofNanoOfDay(nanoOfDay));
    }

    public static String timestamp(long epochSecond, int nanoOfSecond) {
        LocalDateTime dateTime = LocalDateTime.ofEpochSecond(epochSecond, nanoOfSecond, ZoneOffset.UTC);
        return date(dateTime.toLocalDate()) + " " + time(dateTime.toLocalTime());
    }

    /** An instant in the session's time zone, which Riffle keeps at UTC. */
    public static String timestamptz(long epochSecond, int nanoOfSecond) {
        return timestamp(epochSecond, nanoOfSecond) + "+00";
    }

    private static String date(LocalDate date) {
        int year = date.getYear();
        if (year <= 0) {
            // PostgreSQL has no year 0: 1 BC is year 0 of the proleptic calendar java.time uses.
            return String.format("%04d-%02d-%02d BC", 1 - year, date.getMonthValue(), date.getDayOfMonth());
        }
        return year > 9999 ? String.format("%d-%02d-%02d", year, date.getMonthValue(), date.getDayOfMonth())
                : date.toString();
    }

    private static String time(LocalTime time) {
        StringBuilder text = new StringBuilder(18);
        two(text, time.getHour()).append(':');
        two(text, time.getMinute()).append(':');
        two(text, time.getSecond());
        int nanos = time.getNano();
        if (nanos != 0) {
            String digits = Integer.toString(1_000_000_000 + nanos).substring(1);
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            text.append('.').append(digits, 0, end);
        }
        return text.toString();
    }

    private static StringBuilder two(StringBuilder text, int value) {
        return (value < 10 ? text.append('0') : text).append(value);
    }

    private static String nonFinite(double value) {
        return Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
    }

    /**
     * Java's shortest digits of a float, in PostgreSQL's layout: plain between 1e-4 and
     * 10^{@code plainDigits}, else {@code d.ddde+XX}.
     */
    private static String shortest(String javaText, boolean negativeZero, int plainDigits) {
        BigDecimal exact = new BigDecimal(javaText);
        if (exact.signum() == 0) {
            return negativeZero ? "-0" : "0";
        }
        BigDecimal digits = exact.stripTrailingZeros();
        int exponent = digits.precision() - digits.scale() - 1;
        if (exponent >= -4 && exponent < plainDigits) {
            return digits.toPlainString();
        }
        String unscaled = digits.unscaledValue().abs().toString();
        StringBuilder text = new StringBuilder();
        if (digits.signum() < 0) {
            text.append('-');
        }
        text.append(unscaled.charAt(0));
        if (unscaled.length() > 1) {
            text.append('.').append(unscaled, 1, unscaled.length());
        }
        text.append('e').append(exponent < 0 ? '-' : '+');
        int magnitude = Math.abs(exponent);
        if (magnitude < 10) {
            text.append('0');
        }
        return text.append(magnitude).toString();
    }
}
