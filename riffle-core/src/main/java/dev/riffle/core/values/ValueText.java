package dev.riffle.core.values;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Base64;

/**
 * The text of a value, decided in this one place: what JSON strings, CSV cells, map keys and any
 * other text rendering show. DATE is {@code 2024-06-01}; TIME always has seconds and a fraction
 * in groups of three digits when it has one ({@code 12:30:00}, {@code 12:30:00.250}); TIMESTAMP is
 * a local date-time ({@code 2024-06-01T12:30:00.123456}); TIMESTAMP_LTZ an instant
 * ({@code 2024-06-01T12:30:00.123456Z}); binary is base64; decimals are plain (no exponent);
 * floats print as themselves ({@code 0.1}, not the double {@code 0.10000000149011612}); NaN and the
 * infinities are {@code NaN}, {@code Infinity}, {@code -Infinity}.
 *
 * <pre>{@code
 * ValueText.time(45_000_250_000_000L)   // "12:30:00.250"
 * }</pre>
 */
public final class ValueText {
    private static final Base64.Encoder BASE64 = Base64.getEncoder();

    private ValueText() {}

    public static String date(int epochDay) {
        return LocalDate.ofEpochDay(epochDay).toString();
    }

    public static String time(long nanoOfDay) {
        return time(LocalTime.ofNanoOfDay(nanoOfDay));
    }

    public static String timestamp(long epochSecond, int nanoOfSecond) {
        LocalDateTime dateTime = LocalDateTime.ofEpochSecond(epochSecond, nanoOfSecond, ZoneOffset.UTC);
        return dateTime.toLocalDate() + "T" + time(dateTime.toLocalTime());
    }

    public static String instant(long epochSecond, int nanoOfSecond) {
        return Instant.ofEpochSecond(epochSecond, nanoOfSecond).toString();
    }

    /**
     * A TIMESTAMP read back from its text: {@code 2024-06-01T12:30:00.123456789}, a space taken for
     * the {@code T}; every digit kept.
     *
     * @throws java.time.DateTimeException when the text is not one
     */
    public static LocalDateTime parseTimestamp(String text) {
        return LocalDateTime.parse(text.trim().replace(' ', 'T'));
    }

    /**
     * A TIMESTAMP_LTZ read back from its text: an instant with {@code Z}
     * ({@code 2024-06-01T10:30:00.000001Z}) or with an offset ({@code +02:00}); a space taken for
     * the {@code T}.
     *
     * @throws java.time.DateTimeException when the text is not one
     */
    public static Instant parseInstant(String text) {
        String iso = text.trim().replace(' ', 'T');
        try {
            return Instant.parse(iso);
        } catch (java.time.DateTimeException e) {
            return java.time.OffsetDateTime.parse(iso).toInstant();
        }
    }

    public static String binary(byte[] value) {
        return BASE64.encodeToString(value);
    }

    public static String decimal(BigDecimal value) {
        return value.toPlainString();
    }

    public static String floatNumber(float value) {
        return Float.isFinite(value) ? Float.toString(value) : nonFinite(value);
    }

    public static String doubleNumber(double value) {
        return Double.isFinite(value) ? Double.toString(value) : nonFinite(value);
    }

    /** JSON has no NaN or infinities: they travel as these strings (which the write endpoints accept). */
    public static String nonFinite(double value) {
        return Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
    }

    /**
     * A time as {@code java.time} prints instants: seconds always ({@code 12:30:00}, not
     * {@code 12:30}), a fraction in groups of three digits when there is one.
     */
    private static String time(LocalTime time) {
        StringBuilder text = new StringBuilder(18);
        two(text, time.getHour()).append(':');
        two(text, time.getMinute()).append(':');
        two(text, time.getSecond());
        int nanos = time.getNano();
        if (nanos != 0) {
            String digits = Integer.toString(1_000_000_000 + nanos).substring(1);
            int keep = nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9;
            text.append('.').append(digits, 0, keep);
        }
        return text.toString();
    }

    private static StringBuilder two(StringBuilder text, int value) {
        return (value < 10 ? text.append('0') : text).append(value);
    }
}
