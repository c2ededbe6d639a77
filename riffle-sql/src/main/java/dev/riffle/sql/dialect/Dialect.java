package dev.riffle.sql.dialect;

import dev.riffle.sql.ddl.FlussParserFactory;
import java.util.Locale;
import java.util.Properties;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Which SQL a {@code jdbc:riffle} connection speaks ({@link #PROPERTY}{@code =calcite|postgresql}):
 * Calcite's (the default: what the HTTP gateway, Flight SQL and {@code riffle sql} take) or
 * PostgreSQL's (the PostgreSQL port). PostgreSQL's parses with Calcite's Babel parser ({@code ::}
 * casts, {@code ~} regular expressions, {@code ILIKE}, PostgreSQL's keywords), takes PostgreSQL's
 * function library and Riffle's PostgreSQL functions, folds unquoted names to lower case (a
 * database or table made with capitals is still found when no name matches exactly), and sees the
 * system catalogs {@code pg_catalog} and {@code information_schema}.
 *
 * <pre>{@code
 * DriverManager.getConnection("jdbc:riffle://127.0.0.1:9123;dialect=postgresql");
 * }</pre>
 */
public enum Dialect {
    CALCITE,
    POSTGRESQL;

    /** The driver property that chooses the dialect. */
    public static final String PROPERTY = "dialect";

    /** The dialect {@code value} names ({@code calcite} or {@code postgresql}, any case). */
    public static Dialect of(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "calcite" -> CALCITE;
            case "postgresql", "postgres" -> POSTGRESQL;
            default -> throw new IllegalArgumentException("The driver property " + PROPERTY + " takes calcite or"
                    + " postgresql, got '" + value + "'");
        };
    }

    /** What the validator allows in this dialect. */
    public SqlConformance conformance() {
        return this == POSTGRESQL ? PostgresConformance.INSTANCE
                : SqlConformanceEnum.DEFAULT;
    }

    /** Calcite's connection properties for this dialect, before the user's own. */
    public Properties connectionProperties() {
        Properties properties = new Properties();
        properties.setProperty("quoting", "DOUBLE_QUOTE");
        properties.setProperty("quotedCasing", "UNCHANGED");
        properties.setProperty("unquotedCasing", "UNCHANGED");
        if (this == CALCITE) {
            properties.setProperty("caseSensitive", "true");
            properties.setProperty("parserFactory", FlussParserFactory.class.getName() + "#FACTORY");
        } else {
            // PostgreSQL folds unquoted names to lower case; Fluss keeps the case names were made
            // with, so the schemas then find a database or table that differs only in case.
            properties.setProperty("caseSensitive", "true");
            properties.setProperty("unquotedCasing", "TO_LOWER");
            properties.setProperty("parserFactory", PostgresParserFactory.class.getName() + "#FACTORY");
            properties.setProperty("conformance", "BABEL");
            properties.setProperty("fun", "standard,postgresql");
        }
        return properties;
    }
}
