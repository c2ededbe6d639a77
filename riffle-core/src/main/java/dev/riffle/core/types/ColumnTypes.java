package dev.riffle.core.types;

import dev.riffle.core.exception.InvalidTypeException;
import static java.util.Objects.requireNonNull;

import java.util.regex.Pattern;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeParser;

/**
 * Parses a column's type as users write it (SQL DDL, the HTTP gateway's table JSON) into a Fluss
 * {@link DataType}: Fluss's own type syntax, plus the SQL and PostgreSQL spellings Fluss lacks:
 * {@code VARCHAR[(n)]}, {@code CHARACTER VARYING[(n)]}, {@code TEXT} and {@code BPCHAR} are
 * {@code STRING} (Fluss has no length-bounded strings), {@code CHARACTER(n)} is {@code CHAR(n)},
 * {@code VARBINARY[(n)]} and {@code BYTEA} are {@code BYTES}, {@code REAL} and {@code FLOAT4}
 * are {@code FLOAT}, {@code FLOAT8} is {@code DOUBLE}, {@code FLOAT(p)} is {@code FLOAT} up to 24
 * bits and {@code DOUBLE} up to 53, {@code INT2}/{@code INT4}/{@code INT8} are
 * {@code SMALLINT}/{@code INT}/{@code BIGINT}, {@code BOOL} is {@code BOOLEAN},
 * {@code TIMESTAMP[(p)] WITH TIME ZONE} and {@code TIMESTAMPTZ[(p)]} are
 * {@code TIMESTAMP_LTZ(p)} (an instant, as PostgreSQL keeps it; p 6 unless given), and
 * {@code T[]} is {@code ARRAY<T>}. PostgreSQL types without a Fluss twin ({@code NUMERIC}
 * without precision, {@code SERIAL}, {@code JSON}, {@code UUID}, ...) are refused, saying what to
 * write instead.
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
    private static final Pattern ARRAY_SUFFIX = Pattern.compile("^(.*?)\\s*\\[\\s*\\d*\\s*]\\s*((?:NOT\\s+)?NULL)?$",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    /** PostgreSQL's spellings, in the order they are rewritten. */
    private static final java.util.List<java.util.Map.Entry<Pattern, String>> SPELLINGS = java.util.List.of(
            spelling("\\bTIMESTAMPTZ\\b\\s*\\(\\s*(\\d+)\\s*\\)", "TIMESTAMP_LTZ($1)"),
            spelling("\\bTIMESTAMPTZ\\b", "TIMESTAMP_LTZ(6)"),
            spelling("\\bTIMESTAMP\\s*\\(\\s*(\\d+)\\s*\\)\\s+WITH\\s+TIME\\s+ZONE\\b", "TIMESTAMP_LTZ($1)"),
            spelling("\\bTIMESTAMP\\s+WITH\\s+TIME\\s+ZONE\\b", "TIMESTAMP_LTZ(6)"),
            spelling("\\bCHARACTER\\s+VARYING\\b(\\s*\\(\\s*\\d+\\s*\\))?", "STRING"),
            spelling("\\bCHARACTER\\b", "CHAR"),
            spelling("\\b(TEXT|BPCHAR)\\b", "STRING"),
            spelling("\\bBYTEA\\b", "BYTES"),
            spelling("\\bINT2\\b", "SMALLINT"),
            spelling("\\bINT4\\b", "INT"),
            spelling("\\bINT8\\b", "BIGINT"),
            spelling("\\bFLOAT4\\b", "FLOAT"),
            spelling("\\bFLOAT8\\b", "DOUBLE"),
            spelling("\\bBOOL\\b", "BOOLEAN"));
    private static final Pattern FLOAT_BITS = Pattern.compile("(?i)\\bFLOAT\\s*\\(\\s*(\\d+)\\s*\\)");
    private static final Pattern BARE_NUMERIC = Pattern.compile("(?i)\\bNUMERIC\\b(?!\\s*\\()");
    private static final java.util.Map<String, String> WITHOUT_TWIN = java.util.Map.of(
            "SERIAL", "Fluss has no sequences: write INT and give each row its id",
            "BIGSERIAL", "Fluss has no sequences: write BIGINT and give each row its id",
            "SMALLSERIAL", "Fluss has no sequences: write SMALLINT and give each row its id",
            "JSON", "write STRING (TEXT) and keep the JSON as text",
            "JSONB", "write STRING (TEXT) and keep the JSON as text",
            "UUID", "write STRING (TEXT) or BINARY(16)",
            "MONEY", "write DECIMAL(p, s)",
            "INTERVAL", "write BIGINT (a count of a unit you choose)");

    private static java.util.Map.Entry<Pattern, String> spelling(String regex, String replacement) {
        return java.util.Map.entry(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), replacement);
    }

    private ColumnTypes() {}

    /**
     * @throws IllegalArgumentException naming the column, the type written and the types there are
     */
    public static DataType parse(String column, String type) {
        requireNonNull(column, "column is null");
        requireNonNull(type, "type is null");
        String fluss = flussSpelling(column, type);
        try {
            return DataTypeParser.parse(fluss);
        } catch (RuntimeException e) {
            String reason = e.getMessage() == null ? "" : " (" + e.getMessage().lines().findFirst().orElse("") + ")";
            throw new InvalidTypeException("Column '" + column + "' has type '" + type
                    + "', which is not a Fluss type" + reason + "; types are " + KNOWN_TYPES, e);
        }
    }

    /** {@code type} in Fluss's type syntax. */
    private static String flussSpelling(String column, String type) {
        java.util.regex.Matcher array = ARRAY_SUFFIX.matcher(type.strip());
        if (array.matches()) {
            String nullability = array.group(2) == null ? "" : " " + array.group(2);
            return "ARRAY<" + flussSpelling(column, array.group(1)) + ">" + nullability;
        }
        String word = type.strip().split("[\\s(]", 2)[0].toUpperCase(java.util.Locale.ROOT);
        if (WITHOUT_TWIN.containsKey(word)) {
            throw new InvalidTypeException("Column '" + column + "' has type '" + type + "', which Fluss has no twin"
                    + " of: " + WITHOUT_TWIN.get(word));
        }
        if (BARE_NUMERIC.matcher(type).find()) {
            throw new InvalidTypeException("Column '" + column + "' has type '" + type + "': a NUMERIC without"
                    + " precision has no Fluss twin (Fluss decimals have a fixed scale); write NUMERIC(p, s), p up to 38");
        }
        String fluss = REAL.matcher(VARBINARY.matcher(VARCHAR.matcher(type).replaceAll("STRING"))
                .replaceAll("BYTES")).replaceAll("FLOAT");
        for (java.util.Map.Entry<Pattern, String> spelling : SPELLINGS) {
            fluss = spelling.getKey().matcher(fluss).replaceAll(spelling.getValue());
        }
        java.util.regex.Matcher bits = FLOAT_BITS.matcher(fluss);
        StringBuilder floats = new StringBuilder();
        while (bits.find()) {
            int precision = Integer.parseInt(bits.group(1));
            if (precision < 1 || precision > 53) {
                throw new InvalidTypeException("Column '" + column + "' has type '" + type + "': FLOAT(p) takes p"
                        + " from 1 to 53 bits");
            }
            bits.appendReplacement(floats, precision <= 24 ? "FLOAT" : "DOUBLE");
        }
        bits.appendTail(floats);
        return floats.toString();
    }
}
