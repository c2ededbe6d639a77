package dev.riffle.sql.dialect;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's interval text ({@code '1 day'}, {@code '2 hours 30 minutes'}, {@code '-3 mons'},
 * {@code '1.5 seconds'}, {@code '01:30:00'}) as Calcite's interval literals
 * ({@code INTERVAL '1' DAY}, a sum where there are several parts). Text it cannot read is left to
 * the parser, which then names what it could not take.
 *
 * <pre>{@code
 * PostgresIntervals.calcite("2 hours 30 minutes")  // (INTERVAL '2' HOUR + INTERVAL '30' MINUTE)
 * }</pre>
 */
final class PostgresIntervals {
    private static final Pattern PART = Pattern.compile(
            "\\s*([+-]?\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]+)\\s*|\\s*([+-]?)(\\d{1,9}):(\\d{2})(?::(\\d{2}(?:\\.\\d+)?))?\\s*");

    private PostgresIntervals() {}

    static Optional<String> calcite(String text) {
        List<String> parts = new ArrayList<>();
        Matcher part = PART.matcher(text);
        int at = 0;
        while (at < text.length()) {
            if (!part.find(at) || part.start() != at || part.end() == at) {
                return Optional.empty();
            }
            at = part.end();
            if (part.group(1) != null) {
                Optional<String> literal = literal(new BigDecimal(part.group(1)), part.group(2));
                if (literal.isEmpty()) {
                    return Optional.empty();
                }
                parts.add(literal.get());
            } else {
                String sign = part.group(3);
                parts.add("INTERVAL '" + sign + part.group(4) + "' HOUR");
                parts.add("INTERVAL '" + sign + part.group(5) + "' MINUTE");
                if (part.group(6) != null) {
                    parts.add("INTERVAL '" + sign + part.group(6) + "' SECOND");
                }
            }
        }
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(parts.size() == 1 ? parts.get(0) : "(" + String.join(" + ", parts) + ")");
    }

    private static Optional<String> literal(BigDecimal amount, String unitText) {
        String unit = unitText.toLowerCase(Locale.ROOT);
        String calcite;
        BigDecimal value = amount;
        switch (unit) {
            case "y", "yr", "yrs", "year", "years" -> calcite = "YEAR";
            case "mon", "mons", "month", "months" -> calcite = "MONTH";
            case "w", "week", "weeks" -> {
                calcite = "DAY";
                value = amount.multiply(BigDecimal.valueOf(7));
            }
            case "d", "day", "days" -> calcite = "DAY";
            case "h", "hr", "hrs", "hour", "hours" -> calcite = "HOUR";
            case "m", "min", "mins", "minute", "minutes" -> calcite = "MINUTE";
            case "s", "sec", "secs", "second", "seconds" -> calcite = "SECOND";
            case "ms", "msec", "msecs", "millisecond", "milliseconds" -> {
                calcite = "SECOND";
                value = amount.movePointLeft(3);
            }
            default -> {
                return Optional.empty();
            }
        }
        if (!calcite.equals("SECOND") && value.stripTrailingZeros().scale() > 0) {
            // 1.5 hours: Calcite's HOUR takes whole hours; PostgreSQL's is 90 minutes
            return calcite.equals("YEAR") || calcite.equals("MONTH") ? Optional.empty()
                    : literal(value.multiply(BigDecimal.valueOf(switch (calcite) {
                        case "DAY" -> 86_400;
                        case "HOUR" -> 3_600;
                        default -> 60;
                    })), "seconds");
        }
        return Optional.of("INTERVAL '" + value.stripTrailingZeros().toPlainString() + "' " + calcite);
    }
}
