package dev.riffle.sql.types;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.BinaryType;
import org.apache.fluss.types.CharType;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.types.TimestampType;

/**
 * Fluss types as SQL types, and the Java class Calcite uses for each value.
 *
 * <p>{@code STRING} is {@code VARCHAR}, {@code BYTES} is {@code VARBINARY}, {@code FLOAT} is
 * {@code REAL}, {@code TIMESTAMP_LTZ} is {@code TIMESTAMP WITH LOCAL TIME ZONE}; times carry
 * milliseconds, timestamps their column's precision (up to 9, {@link FlussTypeSystem}: literals and
 * the values Riffle binds keep every digit, while Calcite's row engine holds milliseconds).
 * {@code ARRAY}, {@code MAP} and
 * {@code ROW} are SQL arrays, maps and rows ({@code tags[1]}, {@code attrs['k']},
 * {@code t.point.x}); their values are a {@code List}, a {@code Map} and an {@code Object[]}.
 */
public final class SqlTypes {
    /** Calcite's row engine keeps times and timestamps in milliseconds. */
    private static final int MAX_TIME_PRECISION = 3;

    private SqlTypes() {}

    public static RelDataType rowType(RelDataTypeFactory factory, RowType rowType) {
        RelDataTypeFactory.Builder builder = factory.builder();
        for (DataField field : rowType.getFields()) {
            builder.add(field.getName(), sqlType(factory, field.getType()));
        }
        return builder.build();
    }

    public static RelDataType sqlType(RelDataTypeFactory factory, DataType type) {
        RelDataType sql = switch (type.getTypeRoot()) {
            case BOOLEAN -> factory.createSqlType(SqlTypeName.BOOLEAN);
            case TINYINT -> factory.createSqlType(SqlTypeName.TINYINT);
            case SMALLINT -> factory.createSqlType(SqlTypeName.SMALLINT);
            case INTEGER -> factory.createSqlType(SqlTypeName.INTEGER);
            case BIGINT -> factory.createSqlType(SqlTypeName.BIGINT);
            case FLOAT -> factory.createSqlType(SqlTypeName.REAL);
            case DOUBLE -> factory.createSqlType(SqlTypeName.DOUBLE);
            case CHAR -> factory.createSqlType(SqlTypeName.CHAR, ((CharType) type).getLength());
            case STRING -> factory.createSqlType(SqlTypeName.VARCHAR);
            case BINARY -> factory.createSqlType(SqlTypeName.BINARY, ((BinaryType) type).getLength());
            case BYTES -> factory.createSqlType(SqlTypeName.VARBINARY);
            case DECIMAL -> factory.createSqlType(SqlTypeName.DECIMAL, ((DecimalType) type).getPrecision(),
                    ((DecimalType) type).getScale());
            case DATE -> factory.createSqlType(SqlTypeName.DATE);
            case TIME_WITHOUT_TIME_ZONE -> factory.createSqlType(SqlTypeName.TIME, MAX_TIME_PRECISION);
            case TIMESTAMP_WITHOUT_TIME_ZONE ->
                    factory.createSqlType(SqlTypeName.TIMESTAMP, ((TimestampType) type).getPrecision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> factory.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                    ((LocalZonedTimestampType) type).getPrecision());
            case ARRAY -> factory.createArrayType(sqlType(factory, ((ArrayType) type).getElementType()), -1);
            case MAP -> factory.createMapType(sqlType(factory, ((MapType) type).getKeyType()),
                    sqlType(factory, ((MapType) type).getValueType()));
            case ROW -> {
                RowType row = (RowType) type;
                yield factory.createStructType(row.getFields().stream().map(f -> sqlType(factory, f.getType())).toList(),
                        row.getFieldNames());
            }
            default -> factory.createSqlType(SqlTypeName.VARCHAR);
        };
        return factory.createTypeWithNullability(sql, type.isNullable());
    }

    /**
     * The Fluss type of a SQL result column (what a statement computed): the reverse of
     * {@link #sqlType}, with {@code CHAR} as {@code STRING} (Calcite pads computed text to its
     * longest branch), times at Calcite's millisecond precision, timestamps at the type's (at
     * least milliseconds), and types Fluss
     * has no counterpart for (intervals, symbols) as their text.
     */
    public static DataType flussType(RelDataType type) {
        DataType fluss = switch (type.getSqlTypeName()) {
            case BOOLEAN -> DataTypes.BOOLEAN();
            case TINYINT -> DataTypes.TINYINT();
            case SMALLINT -> DataTypes.SMALLINT();
            case INTEGER -> DataTypes.INT();
            case BIGINT -> DataTypes.BIGINT();
            case REAL -> DataTypes.FLOAT();
            case FLOAT, DOUBLE -> DataTypes.DOUBLE();
            case DECIMAL -> DataTypes.DECIMAL(Math.min(Math.max(type.getPrecision(), 1), 38),
                    Math.max(0, Math.min(type.getScale(), Math.min(Math.max(type.getPrecision(), 1), 38))));
            case BINARY, VARBINARY -> DataTypes.BYTES();
            case DATE -> DataTypes.DATE();
            case TIME -> DataTypes.TIME(MAX_TIME_PRECISION);
            case TIMESTAMP -> DataTypes.TIMESTAMP(resultPrecision(type));
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> DataTypes.TIMESTAMP_LTZ(resultPrecision(type));
            case ARRAY -> DataTypes.ARRAY(flussType(type.getComponentType()));
            case MAP -> DataTypes.MAP(flussType(type.getKeyType()), flussType(type.getValueType()));
            case ROW -> {
                List<DataField> fields = new ArrayList<>();
                for (var field : type.getFieldList()) {
                    fields.add(new DataField(field.getName(), flussType(field.getType())));
                }
                yield new RowType(fields);
            }
            default -> DataTypes.STRING();
        };
        return type.isNullable() ? fluss : fluss.copy(false);
    }

    /**
     * A result timestamp's precision: the SQL type's (a column read as it is answers in its own
     * unit), but at least Calcite's milliseconds, which computed values hold even when their type
     * says fewer digits ({@code CAST(x AS TIMESTAMP)} is TIMESTAMP(0)).
     */
    private static int resultPrecision(RelDataType type) {
        return Math.max(MAX_TIME_PRECISION, Math.min(FlussTypeSystem.MAX_TIMESTAMP_PRECISION, type.getPrecision()));
    }

    /**
     * The SQL name of a Fluss type's values, as JDBC's {@code getColumnTypeName} gives it
     * ({@code INTEGER}, {@code VARCHAR}, {@code DECIMAL}, {@code TIMESTAMP_WITH_LOCAL_TIME_ZONE}).
     */
    public static String typeName(DataType type) {
        return switch (type.getTypeRoot()) {
            case INTEGER -> "INTEGER";
            case FLOAT -> "REAL";
            case STRING -> "VARCHAR";
            case BYTES -> "VARBINARY";
            case TIME_WITHOUT_TIME_ZONE -> "TIME";
            case TIMESTAMP_WITHOUT_TIME_ZONE -> "TIMESTAMP";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> "TIMESTAMP_WITH_LOCAL_TIME_ZONE";
            default -> type.getTypeRoot().name();
        };
    }

    /** The class of Calcite's internal value for a column of this type (as {@code RexLiteral.getValueAs} takes it). */
    public static Class<?> internalClass(DataType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> Boolean.class;
            case TINYINT -> Byte.class;
            case SMALLINT -> Short.class;
            case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> Integer.class;
            case BIGINT -> Long.class;
            // every digit of the literal, not the milliseconds its Long value would keep
            case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> TimestampString.class;
            case FLOAT -> Float.class;
            case DOUBLE -> Double.class;
            case DECIMAL -> BigDecimal.class;
            case BINARY, BYTES -> ByteString.class;
            default -> String.class;
        };
    }
}
