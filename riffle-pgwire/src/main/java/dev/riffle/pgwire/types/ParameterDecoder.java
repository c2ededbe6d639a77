package dev.riffle.pgwire.types;

import dev.riffle.sql.dialect.PgType;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * A bound parameter's bytes (text or binary format) as the Java value the SQL layer's
 * {@code setObject} takes for the parameter's type ({@code Boolean}, {@code Integer}, {@code Long},
 * {@code Float}, {@code Double}, {@code BigDecimal}, {@code String}, {@code byte[]},
 * {@code java.sql.Date}/{@code Time}/{@code Timestamp}), or null for NULL.
 *
 * <pre>{@code
 * Object id = ParameterDecoder.decode(Optional.of("42".getBytes(UTF_8)), false, PgType.INT4, PgType.INT8, 1); // 42L
 * }</pre>
 */
public final class ParameterDecoder {
    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart().appendLiteral(' ').optionalEnd()
            .optionalStart().appendLiteral('T').optionalEnd()
            .append(DateTimeFormatter.ofPattern("HH:mm[:ss]"))
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .optionalStart().appendOffset("+HH:mm", "Z").optionalEnd()
            .optionalStart().appendOffset("+HH", "Z").optionalEnd()
            .toFormatter(Locale.ROOT);

    private ParameterDecoder() {}

    /**
     * @param wire the type the client declared (Parse's OID, or the inferred type when it gave none)
     * @param target the type the statement takes at this position
     * @param position the parameter's 1-based position, for messages
     * @throws InvalidParameterException when the bytes are not a value of the type
     */
    public static Object decode(Optional<byte[]> value, boolean binary, PgType wire, PgType target, int position) {
        if (value.isEmpty()) {
            return null;
        }
        byte[] bytes = value.get();
        try {
            if (!binary) {
                return fromText(new String(bytes, UTF_8), target);
            }
            return coerce(fromBinary(bytes, wire), target);
        } catch (IllegalArgumentException | DateTimeParseException | ArithmeticException
                | java.nio.BufferUnderflowException e) {
            String shown = binary ? bytes.length + " bytes in binary format" : "\"" + abbreviate(new String(bytes, UTF_8)) + "\"";
            throw new InvalidParameterException("invalid input syntax for type " + target.typeName() + ": " + shown
                    + " (parameter $" + position + ")");
        }
    }

    private static Object fromText(String text, PgType target) {
        String trimmed = text.trim();
        return switch (target) {
            case BOOL -> bool(trimmed);
            case INT2, INT4 -> Integer.valueOf(trimmed);
            case INT8 -> Long.valueOf(trimmed);
            case FLOAT4 -> Float.valueOf(floatText(trimmed));
            case FLOAT8 -> Double.valueOf(floatText(trimmed));
            case NUMERIC -> new BigDecimal(trimmed);
            case BYTEA -> bytea(text);
            case DATE -> Date.valueOf(LocalDate.parse(trimmed));
            case TIME -> Time.valueOf(LocalTime.parse(trimmed));
            case TIMESTAMP -> Timestamp.valueOf(localDateTime(trimmed, false));
            case TIMESTAMPTZ -> Timestamp.valueOf(localDateTime(trimmed, true));
            default -> text;
        };
    }

    private static Object fromBinary(byte[] bytes, PgType wire) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        Object value = switch (wire) {
            case BOOL -> in.get() != 0;
            case INT2 -> (int) in.getShort();
            case INT4 -> in.getInt();
            case INT8 -> in.getLong();
            case FLOAT4 -> in.getFloat();
            case FLOAT8 -> in.getDouble();
            case NUMERIC -> PgBinary.readNumeric(bytes);
            case BYTEA -> bytes.clone();
            case DATE -> Date.valueOf(LocalDate.ofEpochDay((long) in.getInt() + PgBinary.PG_EPOCH_DAY));
            case TIME -> Time.valueOf(LocalTime.ofNanoOfDay(Math.multiplyExact(in.getLong(), 1_000L)));
            case TIMESTAMP, TIMESTAMPTZ -> {
                long micros = in.getLong();
                yield Timestamp.valueOf(LocalDateTime.ofEpochSecond(
                        Math.floorDiv(micros, 1_000_000L) + PgBinary.PG_EPOCH_SECOND,
                        (int) Math.floorMod(micros, 1_000_000L) * 1_000, ZoneOffset.UTC));
            }
            default -> new String(bytes, UTF_8);
        };
        if (wire != PgType.BYTEA && wire != PgType.NUMERIC && in.hasRemaining()) {
            throw new IllegalArgumentException(bytes.length + " bytes is not the binary size of " + wire.typeName());
        }
        return value;
    }

    /** A binary value of the declared type as the statement's type wants it (an int4 bound to a BIGINT, say). */
    private static Object coerce(Object value, PgType target) {
        if (value instanceof String text) {
            return fromText(text, target);
        }
        if (value instanceof Number number) {
            return switch (target) {
                case INT2, INT4 -> Math.toIntExact(exactLong(number));
                case INT8 -> exactLong(number);
                case FLOAT4 -> number.floatValue();
                case FLOAT8 -> number.doubleValue();
                case NUMERIC -> number instanceof BigDecimal decimal ? decimal : new BigDecimal(number.toString());
                case TEXT, VARCHAR -> number instanceof BigDecimal decimal ? decimal.toPlainString() : number.toString();
                default -> value;
            };
        }
        return value;
    }

    private static long exactLong(Number number) {
        if (number instanceof BigDecimal decimal) {
            return decimal.longValueExact();
        }
        if (number instanceof Float || number instanceof Double) {
            double d = number.doubleValue();
            if (d != Math.rint(d) || Math.abs(d) > 9.0e18) {
                throw new ArithmeticException("not an integer");
            }
            return (long) d;
        }
        return number.longValue();
    }

    static Boolean bool(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "t", "true", "y", "yes", "on", "1" -> true;
            case "f", "false", "n", "no", "off", "0" -> false;
            default -> throw new IllegalArgumentException("not a boolean");
        };
    }

    static String floatText(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "infinity", "+infinity", "inf" -> "Infinity";
            case "-infinity", "-inf" -> "-Infinity";
            case "nan" -> "NaN";
            default -> text;
        };
    }

    /** bytea text: {@code \x} hex, or the escape format (plain bytes with {@code \\} and octal {@code \nnn}). */
    static byte[] bytea(String text) {
        if (text.startsWith("\\x") || text.startsWith("\\X")) {
            return HexFormat.of().parseHex(text.substring(2));
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] raw = text.getBytes(UTF_8);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] != '\\') {
                out.write(raw[i]);
            } else if (i + 1 < raw.length && raw[i + 1] == '\\') {
                out.write('\\');
                i++;
            } else if (i + 3 < raw.length) {
                out.write(Integer.parseInt(new String(raw, i + 1, 3, UTF_8), 8));
                i += 3;
            } else {
                throw new IllegalArgumentException("bad escape");
            }
        }
        return out.toByteArray();
    }

    /** A timestamp literal; with an offset, a timestamptz one is moved to UTC and a plain one keeps its local time. */
    static LocalDateTime localDateTime(String text, boolean instant) {
        var parsed = TIMESTAMP.parseBest(text, OffsetDateTime::from, LocalDateTime::from);
        if (parsed instanceof OffsetDateTime offset) {
            return instant ? offset.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime() : offset.toLocalDateTime();
        }
        return (LocalDateTime) parsed;
    }

    private static String abbreviate(String text) {
        return text.length() > 60 ? text.substring(0, 60) + "..." : text;
    }
}
