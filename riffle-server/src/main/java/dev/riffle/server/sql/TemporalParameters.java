package dev.riffle.server.sql;

import dev.riffle.core.values.ValueText;
import java.sql.Date;
import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Types;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Text parameters of date and time types, as a JSON client sends them (JSON has no such types): the
 * text the JSON API writes for the type ({@code 2024-06-01}, {@code 12:30:00.5},
 * {@code 2024-06-01T12:30:00.123456789}, {@code 2024-06-01T10:30:00Z}; a space for the {@code T}
 * is taken too; read by {@link ValueText}, as the JSON API reads written rows) becomes the value
 * JDBC binds for it, a timestamp with every digit. Bound as text,
 * Avatica would read a timestamp with {@code Timestamp.valueOf}, which refuses the ISO form.
 *
 * <pre>{@code
 * List<Object> bound = TemporalParameters.typed(statement.getParameterMetaData(), List.of(1, "2024-06-01T12:30:00.5"));
 * }</pre>
 */
final class TemporalParameters {
    private TemporalParameters() {}

    /**
     * {@code parameters} with each string whose parameter is a date, time or timestamp turned into
     * a {@link Date}, {@link Time} or {@link LocalDateTime} (an instant as its UTC wall clock, as
     * Riffle binds instants everywhere); every other value as it was.
     *
     * @throws SQLException naming the parameter, its type and the text, when the text is not one
     */
    static List<Object> typed(ParameterMetaData metadata, List<Object> parameters) throws SQLException {
        List<Object> typed = new ArrayList<>(parameters.size());
        int count = metadata.getParameterCount();
        for (int i = 0; i < parameters.size(); i++) {
            Object value = parameters.get(i);
            if (value instanceof String text && i < count) {
                typed.add(parse(text.trim(), metadata.getParameterType(i + 1),
                        metadata.getParameterTypeName(i + 1), i + 1));
            } else {
                typed.add(value);
            }
        }
        return typed;
    }

    private static Object parse(String text, int jdbcType, String typeName, int index) throws SQLException {
        String name = typeName == null ? "" : typeName.toUpperCase(Locale.ROOT);
        boolean instant = name.contains("LOCAL_TIME_ZONE") || name.contains("WITH TIME ZONE")
                || jdbcType == Types.TIMESTAMP_WITH_TIMEZONE;
        try {
            if (instant) {
                return LocalDateTime.ofInstant(ValueText.parseInstant(text), ZoneOffset.UTC);
            }
            return switch (jdbcType) {
                case Types.TIMESTAMP -> ValueText.parseTimestamp(text);
                case Types.DATE -> Date.valueOf(LocalDate.parse(text));
                case Types.TIME -> Time.valueOf(LocalTime.parse(text));
                default -> text;
            };
        } catch (DateTimeException e) {
            throw new SQLException("Parameter " + index + " is a " + (name.isEmpty() ? "date or time" : name) + ": '"
                    + text + "' is not one (write it as the JSON API does, for example "
                    + example(jdbcType, instant) + ")", "22007", e);
        }
    }

    private static String example(int jdbcType, boolean instant) {
        if (instant) {
            return "2024-06-01T10:30:00.000001Z";
        }
        return switch (jdbcType) {
            case Types.DATE -> "2024-06-01";
            case Types.TIME -> "12:30:00";
            default -> "2024-06-01T12:30:00.123456789";
        };
    }
}
