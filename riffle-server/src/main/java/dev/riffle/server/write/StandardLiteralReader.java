package dev.riffle.server.write;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.types.TemporalRange;
import dev.riffle.core.values.ValueSink;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.TimestampType;

/**
 * The literals Riffle's own SQL dialect writes without its engine: numbers into numeric columns,
 * and quoted text into {@code STRING} columns and, in ISO form ({@code 2024-06-01},
 * {@code 2024-06-01 12:00:00.5}), into {@code DATE} and {@code TIMESTAMP} columns, which the
 * engine's casts read to the same values. Any other quoted literal (a number or a boolean in
 * quotes, a timestamp with a time zone, {@code 'today'}) is the engine's to cast, so its rules stay
 * the one answer.
 *
 * <pre>{@code
 * FlussValueSink sink = new FlussValueSink(DataTypes.DATE());
 * StandardLiteralReader.INSTANCE.read("2024-06-01", DataTypes.DATE(), sink);
 * }</pre>
 */
public final class StandardLiteralReader implements LiteralReader {
    public static final StandardLiteralReader INSTANCE = new StandardLiteralReader();

    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?");

    private StandardLiteralReader() {}

    @Override
    public boolean writes(DataType type) {
        return switch (requireNonNull(type, "type is null").getTypeRoot()) {
            case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE, DECIMAL, STRING, BINARY, BYTES, DATE,
                    TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> true;
            default -> false; // CHAR(n) pads, TIME, arrays, maps, rows: the engine's
        };
    }

    @Override
    public boolean readsQuoted(DataType type, String text) {
        return switch (type.getTypeRoot()) {
            case STRING -> true;
            case DATE -> DATE.matcher(text).matches();
            case TIMESTAMP_WITHOUT_TIME_ZONE -> TIMESTAMP.matcher(text).matches();
            default -> false;
        };
    }

    @Override
    public void read(String text, DataType type, ValueSink sink) {
        requireNonNull(text, "text is null");
        requireNonNull(sink, "sink is null");
        try {
            switch (type.getTypeRoot()) {
                case TINYINT, SMALLINT, INTEGER, BIGINT -> {
                    if (!INTEGER.matcher(text).matches()) {
                        throw notOf(type, text);
                    }
                    sink.integerValue(Long.parseLong(text));
                }
                case FLOAT -> sink.floatValue(Float.parseFloat(number(type, text)));
                case DOUBLE -> sink.doubleValue(Double.parseDouble(number(type, text)));
                case DECIMAL -> sink.decimalValue(new BigDecimal(number(type, text)));
                case STRING -> sink.stringValue(text);
                case DATE -> {
                    if (!DATE.matcher(text).matches()) {
                        throw notOf(type, text);
                    }
                    LocalDate date = LocalDate.parse(text);
                    check(TemporalRange.date(date));
                    sink.dateValue((int) date.toEpochDay());
                }
                case TIMESTAMP_WITHOUT_TIME_ZONE -> {
                    if (!TIMESTAMP.matcher(text).matches()) {
                        throw notOf(type, text);
                    }
                    LocalDateTime time = LocalDateTime.parse(text.replace(' ', 'T'));
                    check(TemporalRange.timestamp(time, ((TimestampType) type).getPrecision()));
                    sink.timestampValue(time.toEpochSecond(ZoneOffset.UTC), time.getNano());
                }
                default -> throw notOf(type, text);
            }
        } catch (NumberFormatException | DateTimeException e) {
            throw notOf(type, text);
        }
    }

    private static String number(DataType type, String text) {
        if (!NUMBER.matcher(text).matches()) {
            throw notOf(type, text);
        }
        return text;
    }

    private static void check(Optional<String> problem) {
        if (problem.isPresent()) {
            throw new InvalidValueException(problem.get());
        }
    }

    private static InvalidValueException notOf(DataType type, String text) {
        return new InvalidValueException("'" + text + "' is not a literal of type " + type.asSummaryString()
                + " this reader takes");
    }
}
