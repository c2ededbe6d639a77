package dev.riffle.pgwire.types;

import dev.riffle.sql.dialect.PgType;
import java.util.Optional;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import static java.util.Objects.requireNonNull;

/**
 * How one Arrow column (as Riffle reads a Fluss column) appears on the PostgreSQL wire: its OID
 * and size, and for an array the type of its elements. BOOLEAN is bool; TINYINT and SMALLINT
 * int2; INT int4; BIGINT int8; FLOAT float4; DOUBLE float8; DECIMAL numeric; STRING and CHAR
 * text; BYTES and BINARY bytea; DATE date; TIME time; TIMESTAMP timestamp; TIMESTAMP_LTZ
 * timestamptz; ARRAY the element type's array type; MAP and ROW json.
 *
 * <pre>{@code
 * ColumnType type = ColumnType.of(schema.getFields().get(0));   // e.g. int8, binary-capable
 * }</pre>
 *
 * @param scalar the scalar type (for an array: its elements' type; for MAP/ROW: json)
 * @param array whether the column is an ARRAY of {@code scalar}
 * @param nested whether it is an ARRAY of ARRAYs (a multi-dimensional array in PostgreSQL)
 */
public record ColumnType(PgType scalar, boolean array, boolean nested) {
    public ColumnType {
        requireNonNull(scalar, "scalar is null");
    }

    /** A scalar (or json) column. */
    public ColumnType(PgType scalar) {
        this(scalar, false, false);
    }

    /** The OID announced in RowDescription and ParameterDescription. */
    public int oid() {
        return array ? scalar.arrayOid() : scalar.oid();
    }

    public short size() {
        return array ? -1 : scalar.size();
    }

    /** Whether Riffle sends this column in binary when a client asks (all but arrays of arrays). */
    public boolean binaryCapable() {
        return !nested;
    }

    /** The wire type of {@code field}. */
    public static ColumnType of(Field field) {
        requireNonNull(field, "field is null");
        ArrowType type = field.getType();
        if (type instanceof ArrowType.List || type instanceof ArrowType.LargeList
                || type instanceof ArrowType.FixedSizeList) {
            if (field.getChildren().isEmpty()) {
                return new ColumnType(PgType.TEXT, true, false);
            }
            ColumnType element = of(field.getChildren().get(0));
            // An array of arrays is a multi-dimensional array of the innermost type in PostgreSQL.
            return new ColumnType(element.scalar(), true, element.array());
        }
        return new ColumnType(scalar(type).orElse(PgType.TEXT));
    }

    private static Optional<PgType> scalar(ArrowType type) {
        if (type instanceof ArrowType.Bool) {
            return Optional.of(PgType.BOOL);
        } else if (type instanceof ArrowType.Int integer) {
            return Optional.of(switch (integer.getBitWidth()) {
                case 8, 16 -> PgType.INT2;
                case 32 -> PgType.INT4;
                default -> PgType.INT8;
            });
        } else if (type instanceof ArrowType.FloatingPoint floating) {
            return Optional.of(floating.getPrecision() == FloatingPointPrecision.DOUBLE ? PgType.FLOAT8 : PgType.FLOAT4);
        } else if (type instanceof ArrowType.Decimal) {
            return Optional.of(PgType.NUMERIC);
        } else if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
            return Optional.of(PgType.TEXT);
        } else if (type instanceof ArrowType.Binary || type instanceof ArrowType.LargeBinary
                || type instanceof ArrowType.FixedSizeBinary) {
            return Optional.of(PgType.BYTEA);
        } else if (type instanceof ArrowType.Date) {
            return Optional.of(PgType.DATE);
        } else if (type instanceof ArrowType.Time) {
            return Optional.of(PgType.TIME);
        } else if (type instanceof ArrowType.Timestamp timestamp) {
            return Optional.of(timestamp.getTimezone() == null ? PgType.TIMESTAMP : PgType.TIMESTAMPTZ);
        } else if (type instanceof ArrowType.Map || type instanceof ArrowType.Struct) {
            return Optional.of(PgType.JSON);
        }
        return Optional.empty(); // the NULL type of an untyped literal, say: text
    }
}
