package dev.riffle.sql.pgcatalog;

import dev.riffle.core.exception.InvalidValueException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The regular expressions of {@code ~} and {@code ~*}, compiled once while they are in use: a
 * statement matches every row against the same few patterns. At most {@link #CAPACITY} are kept,
 * the least recently used leaving first.
 */
final class RegexPatterns {
    static final int CAPACITY = 256;

    private static final Map<String, Pattern> COMPILED = new LinkedHashMap<>(CAPACITY, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Pattern> eldest) {
            return size() > CAPACITY;
        }
    };

    private RegexPatterns() {}

    /**
     * @throws InvalidValueException naming the pattern, when it is not a regular expression
     */
    static Pattern compile(String regex, boolean ignoreCase) {
        String key = (ignoreCase ? "i:" : "c:") + regex;
        synchronized (COMPILED) {
            Pattern pattern = COMPILED.get(key);
            if (pattern != null) {
                return pattern;
            }
        }
        Pattern pattern;
        try {
            pattern = Pattern.compile(regex, ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0);
        } catch (PatternSyntaxException e) {
            throw new InvalidValueException("invalid regular expression: " + e.getDescription() + " in '"
                    + regex + "'", e);
        }
        synchronized (COMPILED) {
            COMPILED.put(key, pattern);
        }
        return pattern;
    }
}
