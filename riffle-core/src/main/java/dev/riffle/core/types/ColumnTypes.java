package dev.riffle.core.types;

import dev.riffle.core.exception.InvalidTypeException;
import static java.util.Objects.requireNonNull;

import java.util.regex.Pattern;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeParser;

/**
 * Parses a column's type as users write it (SQL DDL, the HTTP gateway's table JSON) into a Fluss
 * {@link DataType}: Fluss's own type syntax, plus the SQL spellings Fluss lacks
 * ({@code VARCHAR[(n)]} is {@code STRING}, {@code VARBINARY[(n)]} is {@code BYTES}, {@code REAL}
 * is {@code FLOAT}), since Fluss has no length-bounded strings.
 *
 * <pre>{@code
 * DataType type = ColumnTypes.parse("amount", "DECIMAL(10, 2) NOT NULL");
 * }</pre>
 */
public final class ColumnTypes {
    /** What a type error lists, so a user sees every choice. */
    public static final String KNOWN_TYPES = "BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), "
            + "CHAR(n), STRING (or VARCHAR), BINARY(n), BYTES (or VARBINARY), DATE, TIME(p), TIMESTAMP(p), "
            + "TIMESTAMP_LTZ(p), ARRAY<T>, MAP<K, V>, ROW<name T, ...>, each optionally NOT NULL";

    private static final Pattern VARCHAR = Pattern.compile("(?i)\\bVARCHAR\\b(\\s*\\(\\s*\\d+\\s*\\))?");
    private static final Pattern VARBINARY = Pattern.compile("(?i)\\bVARBINARY\\b(\\s*\\(\\s*\\d+\\s*\\))?");
    private static final Pattern REAL = Pattern.compile("(?i)\\bREAL\\b");

    private ColumnTypes() {}

    /**
     * @throws IllegalArgumentException naming the column, the type written and the types there are
     */
    public static DataType parse(String column, String type) {
        requireNonNull(column, "column is null");
        requireNonNull(type, "type is null");
        String fluss = REAL.matcher(VARBINARY.matcher(VARCHAR.matcher(type).replaceAll("STRING"))
                .replaceAll("BYTES")).replaceAll("FLOAT");
        try {
            return DataTypeParser.parse(fluss);
        } catch (RuntimeException e) {
            String reason = e.getMessage() == null ? "" : " (" + e.getMessage().lines().findFirst().orElse("") + ")";
            throw new InvalidTypeException("Column '" + column + "' has type '" + type
                    + "', which is not a Fluss type" + reason + "; types are " + KNOWN_TYPES, e);
        }
    }
}
