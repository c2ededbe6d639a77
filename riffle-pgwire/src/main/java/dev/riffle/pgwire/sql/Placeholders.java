package dev.riffle.pgwire.sql;

import dev.riffle.sql.dialect.PostgresLexer;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's numbered parameters ({@code $1}, {@code $2}, used in any order and any number of
 * times) rewritten as the SQL layer's positional {@code ?}: each occurrence becomes one {@code ?},
 * and {@link #order()} says which PostgreSQL parameter each {@code ?} takes.
 *
 * <pre>{@code
 * Placeholders p = Placeholders.rewrite("SELECT * FROM t WHERE a = $2 OR b = $1 OR c = $2");
 * p.sql();    // "SELECT * FROM t WHERE a = ? OR b = ? OR c = ?"
 * p.order();  // [2, 1, 2]
 * }</pre>
 *
 * @param order for each {@code ?} in order, the 1-based number of the PostgreSQL parameter
 * @param count the highest parameter number used
 */
public record Placeholders(String sql, List<Integer> order, int count) {
    /** The most parameters one statement may take (PostgreSQL's own limit, the int16 count). */
    public static final int MAX_PARAMETERS = 65_535;

    public Placeholders {
        requireNonNull(sql, "sql is null");
        order = List.copyOf(order);
    }

    public static Placeholders rewrite(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        List<Integer> order = new ArrayList<>();
        int count = 0;
        int i = 0;
        while (i < sql.length()) {
            int skipped = PostgresLexer.skipQuotedOrComment(sql, i);
            if (skipped != i) {
                out.append(sql, i, skipped);
                i = skipped;
                continue;
            }
            char c = sql.charAt(i);
            if (c == '$' && i + 1 < sql.length() && Character.isDigit(sql.charAt(i + 1))) {
                int j = i + 1;
                while (j < sql.length() && Character.isDigit(sql.charAt(j))) {
                    j++;
                }
                int number;
                try {
                    number = Integer.parseInt(sql.substring(i + 1, j));
                } catch (NumberFormatException e) {
                    number = Integer.MAX_VALUE;
                }
                if (number < 1 || number > MAX_PARAMETERS) {
                    throw new IllegalArgumentException("There is no parameter $" + sql.substring(i + 1, j)
                            + " (parameters are $1 to $" + MAX_PARAMETERS + ")");
                }
                out.append('?');
                order.add(number);
                count = Math.max(count, number);
                i = j;
                continue;
            }
            out.append(c);
            i++;
        }
        return new Placeholders(out.toString(), order, count);
    }
}
