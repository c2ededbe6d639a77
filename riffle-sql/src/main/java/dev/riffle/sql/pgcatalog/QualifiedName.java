package dev.riffle.sql.pgcatalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A name as PostgreSQL reads one written in a string ({@code 'shop.orders'::regclass}): parts split
 * at dots outside double quotes, an unquoted part folded to lower case, a quoted one taken as it is.
 *
 * <pre>{@code
 * QualifiedName.parse("Shop.\"Orders\"")   // [shop, Orders]
 * }</pre>
 */
final class QualifiedName {
    private QualifiedName() {}

    static List<String> parse(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                if (quoted && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    part.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                    wasQuoted = true;
                }
            } else if (c == '.' && !quoted) {
                parts.add(wasQuoted ? part.toString() : part.toString().toLowerCase(Locale.ROOT));
                part.setLength(0);
                wasQuoted = false;
            } else {
                part.append(c);
            }
        }
        parts.add(wasQuoted ? part.toString() : part.toString().toLowerCase(Locale.ROOT));
        return parts;
    }
}
