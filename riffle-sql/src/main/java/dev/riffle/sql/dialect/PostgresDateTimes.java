package dev.riffle.sql.dialect;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's timestamp input that Calcite's literals and casts refuse: the ISO {@code T} between
 * date and time, minutes without seconds, and a zone ({@code Z}, {@code +02}, {@code -05:30}),
 * which drivers and tools send ({@code '2024-06-01T10:00:00'::timestamp} from psycopg2, Grafana's
 * {@code '2017-04-21T05:01:17Z'}). Written as Calcite reads them: {@code 2024-06-01 10:00:00}, and
 * for an instant its UTC time with the zone named.
 *
 * <pre>{@code
 * PostgresDateTimes.timestamp("2024-06-01T10:00+02", true)   // "2024-06-01 08:00:00 UTC"
 * }</pre>
 */
final class PostgresDateTimes {
    private static final Pattern TIMESTAMP = Pattern.compile(
            "\\s*(\\d{4}-\\d{1,2}-\\d{1,2})(?:[T ]\\s*(\\d{1,2}):(\\d{2})(?::(\\d{2})(\\.\\d{1,9})?)?)?"
                    + "\\s*(Z|UTC|[+-]\\d{1,2}(?::?\\d{2})?)?\\s*", Pattern.CASE_INSENSITIVE);
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-M-d");

    private PostgresDateTimes() {}

    /**
     * {@code text} as a Calcite timestamp literal's text, if PostgreSQL reads it as a timestamp
     * Calcite does not; {@code instant}: for {@code timestamp with time zone} (the zone, when given,
     * moves it to UTC; otherwise it is UTC, the session's zone), else the zone is ignored as
     * PostgreSQL ignores it for {@code timestamp}.
     */
    static Optional<String> timestamp(String text, boolean instant) {
        Matcher m = TIMESTAMP.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        LocalDateTime local;
        try {
            local = LocalDate.parse(m.group(1), DATE).atTime(
                    m.group(2) == null ? 0 : Integer.parseInt(m.group(2)),
                    m.group(3) == null ? 0 : Integer.parseInt(m.group(3)),
                    m.group(4) == null ? 0 : Integer.parseInt(m.group(4)));
        } catch (RuntimeException notADate) {
            return Optional.empty(); // Calcite's cast says what is wrong with it
        }
        String zone = m.group(6);
        if (instant && zone != null && !zone.equalsIgnoreCase("Z") && !zone.equalsIgnoreCase("UTC")) {
            String offset = zone.length() <= 3 ? zone + ":00" : zone.contains(":") ? zone
                    : zone.substring(0, 3) + ":" + zone.substring(3);
            local = local.atOffset(ZoneOffset.of(offset)).withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        }
        String fraction = m.group(5) == null ? "" : m.group(5);
        String written = local.toLocalDate() + " " + String.format("%02d:%02d:%02d", local.getHour(),
                local.getMinute(), local.getSecond()) + fraction;
        return Optional.of(instant ? written + " UTC" : written);
    }
}
