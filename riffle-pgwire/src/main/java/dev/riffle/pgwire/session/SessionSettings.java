package dev.riffle.pgwire.session;

import dev.riffle.pgwire.error.PgException;
import dev.riffle.sql.dialect.PostgresRelease;
import dev.riffle.sql.dialect.PublicSchema;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import static java.util.Objects.requireNonNull;

/**
 * One connection's run-time parameters: what the server reports at startup (ParameterStatus) and
 * answers to {@code SHOW}, and what the client changed with {@code SET}. Riffle renders every
 * value in UTF-8, ISO dates and UTC, so those parameters accept only those values.
 *
 * <pre>{@code
 * SessionSettings settings = SessionSettings.startup(Map.of("application_name", "psql"));
 * settings.show("server_version")   // Optional[14.0]
 * }</pre>
 */
public final class SessionSettings {
    private static final Pattern TIME = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(us|ms|s|min|h|d)?");
    /**
     * The PostgreSQL release Riffle presents itself as. 14 rather than 15: clients choose their
     * catalog queries by the server's version, and 14's are the older, smaller set; every driver
     * and psql 15 support it.
     */
    public static final String SERVER_VERSION = PostgresRelease.VERSION;

    /** The parameters reported in ParameterStatus at startup, in order. */
    private static final Set<String> REPORTED = Set.of("server_version", "server_encoding", "client_encoding",
            "datestyle", "integer_datetimes", "standard_conforming_strings", "timezone", "application_name",
            "is_superuser", "session_authorization", "intervalstyle");
    private static final Map<String, String> SPELLING = Map.of("datestyle", "DateStyle", "timezone", "TimeZone",
            "intervalstyle", "IntervalStyle");

    private final Map<String, String> defaults;
    private final Map<String, String> values;

    private SessionSettings(Map<String, String> defaults) {
        this.defaults = defaults;
        this.values = new LinkedHashMap<>(defaults);
    }

    /** The settings of a session that started with these startup parameters (user, application_name, ...). */
    public static SessionSettings startup(Map<String, String> parameters) {
        requireNonNull(parameters, "parameters is null");
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put("server_version", SERVER_VERSION);
        defaults.put("server_version_num", PostgresRelease.VERSION_NUM);
        defaults.put("server_encoding", "UTF8");
        defaults.put("client_encoding", "UTF8");
        defaults.put("datestyle", "ISO, MDY");
        defaults.put("integer_datetimes", "on");
        defaults.put("standard_conforming_strings", "on");
        defaults.put("timezone", "UTC");
        defaults.put("application_name", parameters.getOrDefault("application_name", ""));
        defaults.put("is_superuser", "off");
        defaults.put("session_authorization", parameters.getOrDefault("user", ""));
        defaults.put("intervalstyle", "postgres");
        defaults.put("transaction_isolation", "read committed");
        defaults.put("default_transaction_isolation", "read committed");
        defaults.put("transaction_read_only", "off");
        defaults.put("default_transaction_read_only", "off");
        defaults.put("extra_float_digits", parameters.getOrDefault("extra_float_digits", "1"));
        defaults.put("max_identifier_length", "63");
        defaults.put("statement_timeout", "0");
        defaults.put("search_path", "\"$user\", public");
        defaults.put("lc_messages", "C");
        defaults.put("role", "none");
        return new SessionSettings(defaults);
    }

    /** What ParameterStatus reports at startup: name (as PostgreSQL spells it) and value. */
    public Map<String, String> reported() {
        Map<String, String> reported = new LinkedHashMap<>();
        values.forEach((name, value) -> {
            if (REPORTED.contains(name)) {
                reported.put(SPELLING.getOrDefault(name, name), value);
            }
        });
        return reported;
    }

    public Optional<String> show(String name) {
        return Optional.ofNullable(values.get(name.toLowerCase(Locale.ROOT)));
    }

    /**
     * Sets a parameter; returns the ParameterStatus to send when it is one clients track.
     *
     * @throws PgException for a value Riffle cannot honour (another encoding, time zone or date style)
     */
    public Optional<Map.Entry<String, String>> set(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT);
        if (value.equalsIgnoreCase("DEFAULT")) {
            return reset(key);
        }
        String accepted = switch (key) {
            case "client_encoding" -> only(key, value, Set.of("UTF8", "UTF-8", "UNICODE"), "UTF8");
            case "timezone" -> only(key, value, Set.of("UTC", "ETC/UTC", "GMT", "Z", "+00", "+00:00", "0",
                    "UNIVERSAL", "ZULU"), "UTC");
            case "datestyle" -> {
                if (!value.toUpperCase(Locale.ROOT).startsWith("ISO")) {
                    throw unsupported(key, value, "ISO");
                }
                yield "ISO, MDY";
            }
            case "statement_timeout" -> {
                milliseconds(key, value);
                yield value.strip();
            }
            case "role" -> {
                // Fluss decides what a session may do by the user it logged in as
                String role = value.strip();
                if (role.equalsIgnoreCase("none") || role.equalsIgnoreCase("default")) {
                    yield "none";
                }
                if (role.equals(values.get("session_authorization"))) {
                    yield role;
                }
                throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle runs a session as the user it logged"
                        + " in as: SET ROLE takes NONE or \"" + values.get("session_authorization") + "\", not \"" + role
                        + "\"");
            }
            case "server_version", "server_version_num", "server_encoding", "integer_datetimes", "is_superuser" ->
                    throw new PgException("55P02", "parameter \"" + key + "\" cannot be changed");
            default -> value;
        };
        values.put(key, accepted);
        return REPORTED.contains(key) ? Optional.of(Map.entry(SPELLING.getOrDefault(key, key), accepted))
                : Optional.empty();
    }

    /**
     * The session's {@code statement_timeout}: how long each of its statements may run (empty: 0,
     * the server's own timeout alone applies; a session can shorten the server's, not lengthen it).
     */
    public Optional<Duration> statementTimeout() {
        long millis = milliseconds("statement_timeout", values.getOrDefault("statement_timeout", "0"));
        return millis == 0 ? Optional.empty() : Optional.of(Duration.ofMillis(millis));
    }

    /**
     * A time as PostgreSQL's time parameters take it: milliseconds, or a number with a unit
     * ({@code us}, {@code ms}, {@code s}, {@code min}, {@code h}, {@code d}), quoted or not.
     */
    private static long milliseconds(String key, String value) {
        Matcher matcher = TIME.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new PgException("22023", "invalid value for parameter \"" + key + "\": \"" + value + "\" (a time such"
                    + " as 5000, '5s' or '1min'; 0 turns it off)");
        }
        double amount = Double.parseDouble(matcher.group(1));
        double unit = switch (matcher.group(2) == null ? "ms" : matcher.group(2)) {
            case "us" -> 0.001;
            case "s" -> 1_000;
            case "min" -> 60_000;
            case "h" -> 3_600_000;
            case "d" -> 86_400_000;
            default -> 1;
        };
        double millis = Math.rint(amount * unit);
        if (millis > Integer.MAX_VALUE) {
            throw new PgException("22023", value + " is outside the valid range for parameter \"" + key + "\" (0 .. "
                    + Integer.MAX_VALUE + " ms)");
        }
        return amount > 0 && millis == 0 ? 1 : (long) millis;
    }

    /** Every parameter and its value. */
    public Map<String, String> all() {
        return java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(values));
    }

    /**
     * The schemas of {@code search_path} that name a Fluss database, in order: {@code "$user"} is
     * left out (no database is a user's), {@code public} is Fluss's default database {@code fluss};
     * quotes are taken off, an unquoted name is folded to lower case.
     */
    public java.util.List<String> searchPath() {
        java.util.List<String> schemas = new java.util.ArrayList<>();
        for (String entry : values.getOrDefault("search_path", "").split(",")) {
            String name = entry.strip();
            if (name.isEmpty() || name.equals("\"$user\"") || name.equals("$user")) {
                continue;
            }
            name = name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")
                    ? name.substring(1, name.length() - 1).replace("\"\"", "\"") : name.toLowerCase(Locale.ROOT);
            schemas.add(name.equals(PublicSchema.NAME)
                    ? PublicSchema.DATABASE : name);
        }
        return schemas;
    }

    /** Resets one parameter (empty: all) to its startup value. */
    public Optional<Map.Entry<String, String>> reset(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        String value = defaults.get(key);
        if (value == null) {
            values.remove(key);
            return Optional.empty();
        }
        values.put(key, value);
        return REPORTED.contains(key) ? Optional.of(Map.entry(SPELLING.getOrDefault(key, key), value))
                : Optional.empty();
    }

    public void resetAll() {
        values.clear();
        values.putAll(defaults);
    }

    private static String only(String key, String value, Set<String> accepted, String canonical) {
        if (!accepted.contains(value.strip().toUpperCase(Locale.ROOT))) {
            throw unsupported(key, value, canonical);
        }
        return canonical;
    }

    private static PgException unsupported(String key, String value, String only) {
        return new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle sessions use " + key + " " + only
                + " only; cannot set it to '" + value + "'");
    }
}
