package dev.riffle.sql.pgcatalog;

import dev.riffle.core.exception.InvalidValueException;

/**
 * PostgreSQL's {@code format(formatstr, ...)}: {@code %s} is an argument as text (NULL as
 * nothing), {@code %I} an identifier quoted as needed, {@code %L} a literal quoted (NULL as
 * {@code NULL}), {@code %%} a percent sign; {@code %2$s} takes the second argument.
 *
 * <pre>{@code
 * PgFormat.format("\"%s\".\"%s\"", "shop", "orders")   // "shop"."orders"
 * }</pre>
 */
final class PgFormat {
    private PgFormat() {}

    static String format(String format, Object... arguments) {
        StringBuilder out = new StringBuilder(format.length() + 16);
        int next = 0;
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (++i >= format.length()) {
                throw new InvalidValueException("unterminated format() type specifier");
            }
            if (format.charAt(i) == '%') {
                out.append('%');
                continue;
            }
            int argument = next;
            int dollar = format.indexOf('$', i);
            if (Character.isDigit(format.charAt(i)) && dollar > i
                    && format.substring(i, dollar).chars().allMatch(Character::isDigit)) {
                argument = Integer.parseInt(format.substring(i, dollar)) - 1;
                i = dollar + 1;
                if (i >= format.length()) {
                    throw new InvalidValueException("unterminated format() type specifier");
                }
            }
            if (argument < 0 || argument >= arguments.length) {
                throw new InvalidValueException("too few arguments for format()");
            }
            next = argument + 1;
            Object value = arguments[argument];
            switch (format.charAt(i)) {
                case 's' -> out.append(value == null ? "" : value);
                case 'I' -> {
                    if (value == null) {
                        throw new InvalidValueException("null values cannot be formatted as an SQL identifier");
                    }
                    out.append(PgDefinitions.quote(value.toString()));
                }
                case 'L' -> out.append(value == null ? "NULL" : "'" + value.toString().replace("'", "''") + "'");
                default -> throw new InvalidValueException("unrecognized format() type specifier \""
                        + format.charAt(i) + "\"");
            }
        }
        return out.toString();
    }
}
