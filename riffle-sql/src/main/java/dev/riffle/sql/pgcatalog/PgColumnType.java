package dev.riffle.sql.pgcatalog;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.dialect.PgType;
import java.util.Optional;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.TimeType;
import org.apache.fluss.types.TimestampType;

/**
 * How a Fluss column's type appears in PostgreSQL's catalog: its type (for an array, of its
 * elements), whether it is an array, and its type modifier ({@code atttypmod}: a decimal's
 * precision and scale, a timestamp's fractional digits; -1 for none). The same types the
 * PostgreSQL port sends rows as: BOOLEAN bool, TINYINT and SMALLINT int2, INT int4, BIGINT int8,
 * FLOAT float4, DOUBLE float8, DECIMAL numeric, STRING and CHAR text, BYTES and BINARY bytea, DATE
 * date, TIME time, TIMESTAMP timestamp, TIMESTAMP_LTZ timestamptz, ARRAY its element's array, MAP
 * and ROW json.
 *
 * <pre>{@code
 * PgColumnType.of(DataTypes.DECIMAL(10, 2)).formatted()   // "numeric(10,2)"
 * }</pre>
 *
 * @param type the (element) type
 * @param array whether the column is an array of {@code type}
 * @param typmod PostgreSQL's type modifier, -1 when there is none
 */
public record PgColumnType(PgType type, boolean array, int typmod) {
    public PgColumnType {
        requireNonNull(type, "type is null");
    }

    /** The column type of a Fluss column of type {@code type}. */
    public static PgColumnType of(DataType type) {
        requireNonNull(type, "type is null");
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> new PgColumnType(PgType.BOOL, false, -1);
            case TINYINT, SMALLINT -> new PgColumnType(PgType.INT2, false, -1);
            case INTEGER -> new PgColumnType(PgType.INT4, false, -1);
            case BIGINT -> new PgColumnType(PgType.INT8, false, -1);
            case FLOAT -> new PgColumnType(PgType.FLOAT4, false, -1);
            case DOUBLE -> new PgColumnType(PgType.FLOAT8, false, -1);
            case DECIMAL -> {
                DecimalType decimal = (DecimalType) type;
                yield new PgColumnType(PgType.NUMERIC, false, ((decimal.getPrecision() << 16) | decimal.getScale()) + 4);
            }
            case CHAR, STRING -> new PgColumnType(PgType.TEXT, false, -1);
            case BINARY, BYTES -> new PgColumnType(PgType.BYTEA, false, -1);
            case DATE -> new PgColumnType(PgType.DATE, false, -1);
            case TIME_WITHOUT_TIME_ZONE -> new PgColumnType(PgType.TIME, false,
                    Math.min(6, ((TimeType) type).getPrecision()));
            case TIMESTAMP_WITHOUT_TIME_ZONE -> new PgColumnType(PgType.TIMESTAMP, false,
                    Math.min(6, ((TimestampType) type).getPrecision()));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> new PgColumnType(PgType.TIMESTAMPTZ, false,
                    Math.min(6, ((LocalZonedTimestampType) type).getPrecision()));
            case ARRAY -> {
                PgColumnType element = of(((ArrayType) type).getElementType());
                yield new PgColumnType(element.type(), true, element.typmod());
            }
            case MAP, ROW -> new PgColumnType(PgType.JSON, false, -1);
        };
    }

    /** The type's OID ({@code atttypid}): for an array, its array type's. */
    public int oid() {
        return array ? type.arrayOid() : type.oid();
    }

    /** As PostgreSQL's {@code format_type} writes it: {@code integer}, {@code numeric(10,2)}, {@code text[]}. */
    public String formatted() {
        return formatType(oid(), typmod);
    }

    /** PostgreSQL's {@code format_type(oid, typmod)}; empty text's question mark for a type it does not know. */
    public static String formatType(int oid, int typmod) {
        Optional<PgType> scalar = PgType.ofOid(oid);
        if (scalar.isEmpty()) {
            return PgType.ofArrayOid(oid).map(element -> formatType(element.oid(), typmod) + "[]").orElse("???");
        }
        return switch (scalar.get()) {
            case BOOL -> "boolean";
            case INT2 -> "smallint";
            case INT4 -> "integer";
            case INT8 -> "bigint";
            case FLOAT4 -> "real";
            case FLOAT8 -> "double precision";
            case VARCHAR -> typmod > 4 ? "character varying(" + (typmod - 4) + ")" : "character varying";
            case BPCHAR -> typmod > 4 ? "character(" + (typmod - 4) + ")" : "bpchar";
            case CHAR -> "\"char\"";
            case NUMERIC -> typmod >= 4 ? "numeric(" + ((typmod - 4) >> 16) + "," + ((typmod - 4) & 0xFFFF) + ")"
                    : "numeric";
            case TIME -> (typmod >= 0 ? "time(" + typmod + ")" : "time") + " without time zone";
            case TIMESTAMP -> (typmod >= 0 ? "timestamp(" + typmod + ")" : "timestamp") + " without time zone";
            case TIMESTAMPTZ -> (typmod >= 0 ? "timestamp(" + typmod + ")" : "timestamp") + " with time zone";
            default -> scalar.get().typeName();
        };
    }
}
