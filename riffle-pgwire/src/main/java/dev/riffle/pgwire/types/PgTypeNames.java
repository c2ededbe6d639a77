package dev.riffle.pgwire.types;

import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.sql.dialect.PgType;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.CharType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.TimeType;
import org.apache.fluss.types.TimestampType;

/**
 * A Fluss column type as PostgreSQL names it, the way its {@code format_type} prints a column's
 * type in psql's {@code \d} and in error messages: {@code integer}, {@code bigint},
 * {@code numeric(10,2)}, {@code character(3)}, {@code text}, {@code timestamp with time zone},
 * {@code integer[]}; MAP and ROW are {@code json}, the type they travel as.
 *
 * <pre>{@code
 * PgTypeNames.format(DataTypes.DECIMAL(10, 2))   // "numeric(10,2)"
 * }</pre>
 */
public final class PgTypeNames {
    private PgTypeNames() {}

    /** The name {@code format_type} gives {@code type}. */
    public static String format(DataType type) {
        java.util.Objects.requireNonNull(type, "type is null");
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> "boolean";
            case TINYINT, SMALLINT -> "smallint";
            case INTEGER -> "integer";
            case BIGINT -> "bigint";
            case FLOAT -> "real";
            case DOUBLE -> "double precision";
            case DECIMAL -> "numeric(" + ((DecimalType) type).getPrecision() + "," + ((DecimalType) type).getScale() + ")";
            case CHAR -> "character(" + ((CharType) type).getLength() + ")";
            case STRING -> "text";
            case BINARY, BYTES -> "bytea";
            case DATE -> "date";
            case TIME_WITHOUT_TIME_ZONE -> ((TimeType) type).getPrecision() == 0 ? "time without time zone"
                    : "time(" + ((TimeType) type).getPrecision() + ") without time zone";
            case TIMESTAMP_WITHOUT_TIME_ZONE -> ((TimestampType) type).getPrecision() == 6
                    ? "timestamp without time zone"
                    : "timestamp(" + ((TimestampType) type).getPrecision() + ") without time zone";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> ((LocalZonedTimestampType) type).getPrecision() == 6
                    ? "timestamp with time zone"
                    : "timestamp(" + ((LocalZonedTimestampType) type).getPrecision() + ") with time zone";
            case ARRAY -> format(((ArrayType) type).getElementType()) + "[]";
            default -> "json";
        };
    }

    /**
     * PostgreSQL's type modifier ({@code atttypmod}) of {@code type}: {@code numeric(p,s)} is
     * {@code (p << 16 | s) + 4}, {@code character(n)} is {@code n + 4}, a time or timestamp its
     * precision; -1 for none.
     */
    public static int typmod(DataType type) {
        return switch (type.getTypeRoot()) {
            case DECIMAL -> ((((DecimalType) type).getPrecision() << 16) | ((DecimalType) type).getScale()) + 4;
            case CHAR -> ((CharType) type).getLength() + 4;
            case TIME_WITHOUT_TIME_ZONE -> ((TimeType) type).getPrecision();
            case TIMESTAMP_WITHOUT_TIME_ZONE -> ((TimestampType) type).getPrecision();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> ((LocalZonedTimestampType) type).getPrecision();
            default -> -1;
        };
    }

    /**
     * PostgreSQL's storage strategy ({@code attstorage}) for a column of {@code type}, as its type
     * sets it: {@code p} (plain) for fixed-size types, {@code m} (main) for numeric, {@code x}
     * (extended) for text, bytea, json and arrays. psql's {@code \d+} prints it as the Storage column.
     */
    public static String storage(DataType type) {
        ColumnType wire = columnType(type);
        if (wire.size() > 0) {
            return "p";
        }
        return wire.scalar() == PgType.NUMERIC && !wire.array() ? "m" : "x";
    }

    /** The wire type of a column of {@code type} (its OID, size and element type). */
    public static ColumnType columnType(DataType type) {
        return ColumnType.of(ArrowTypeMapping.toArrowField("c", type));
    }
}
