package dev.riffle.sql.dialect;

import dev.riffle.core.exception.InvalidOptionException;
import java.util.Locale;
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
            default -> throw new InvalidOptionException("The driver property " + PROPERTY + " takes calcite or"
                    + " postgresql, got '" + value + "'");
        };
    }

    /** What the validator allows in this dialect. */
    public SqlConformance conformance() {
        return this == POSTGRESQL ? PostgresConformance.INSTANCE
                : SqlConformanceEnum.DEFAULT;
    }
}
