package dev.riffle.sql.types;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The SQL type system of {@code jdbc:riffle:} connections (Calcite's {@code typeSystem}
 * connection property): Calcite's defaults, but timestamps hold as many fractional digits as
 * Fluss's ({@code TIMESTAMP(9)}, {@code TIMESTAMP_LTZ(9)}) and decimals as many digits as Fluss's
 * ({@code DECIMAL(38, s)}). Calcite's default of 3 cuts a literal such as
 * {@code TIMESTAMP '2024-06-01 12:00:00.123456'} to milliseconds while it is parsed, before Riffle
 * sees it, and types a {@code TIMESTAMP(6)} column as {@code TIMESTAMP(3)}; its default of 19
 * decimal digits refused a {@code DECIMAL(20, 4)} literal and turned such a parameter into NULL.
 *
 * <pre>{@code
 * properties.setProperty("typeSystem", FlussTypeSystem.class.getName() + "#INSTANCE");
 * }</pre>
 */
public final class FlussTypeSystem extends RelDataTypeSystemImpl {
    /** What the {@code typeSystem} connection property points at ({@code FlussTypeSystem#INSTANCE}). */
    public static final RelDataTypeSystem INSTANCE = new FlussTypeSystem(false);

    /**
     * The PostgreSQL dialect's ({@code FlussTypeSystem#POSTGRESQL}): as {@link #INSTANCE}, but the
     * branches of a {@code CASE} or {@code UNION} that are strings of different lengths make a
     * {@code VARCHAR}, as PostgreSQL's {@code text}, not a {@code CHAR} padded with blanks.
     */
    public static final RelDataTypeSystem POSTGRESQL = new FlussTypeSystem(true);

    /** Fluss's TIMESTAMP and TIMESTAMP_LTZ keep up to nanoseconds. */
    public static final int MAX_TIMESTAMP_PRECISION = 9;

    /** Fluss's DECIMAL holds up to 38 digits, of which up to 38 after the point. */
    public static final int MAX_DECIMAL_PRECISION = 38;

    private final boolean raggedStringsVary;

    private FlussTypeSystem(boolean raggedStringsVary) {
        this.raggedStringsVary = raggedStringsVary;
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return raggedStringsVary;
    }

    /**
     * A sum of TINYINT, SMALLINT or INTEGER values is a BIGINT, as in PostgreSQL ({@code sum(int4)}
     * is {@code int8}) and Trino: in the argument's type (Calcite's default) an INTEGER sum past
     * 2^31 wrapped round and answered a wrong number without a word, and a SMALLINT one failed.
     */
    @Override
    public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        return switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER -> typeFactory.createTypeWithNullability(
                    typeFactory.createSqlType(SqlTypeName.BIGINT), argumentType.isNullable());
            default -> super.deriveSumType(typeFactory, argumentType);
        };
    }

    /**
     * The average of TINYINT, SMALLINT or INTEGER values is a BIGINT (still an integer division, as
     * before): Calcite computes it as the sum over the count, and the sum is a BIGINT.
     */
    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        return deriveSumType(typeFactory, argumentType);
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        return typeName == SqlTypeName.DECIMAL ? MAX_DECIMAL_PRECISION : super.getMaxScale(typeName);
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> MAX_TIMESTAMP_PRECISION;
            case DECIMAL -> MAX_DECIMAL_PRECISION;
            default -> super.getMaxPrecision(typeName);
        };
    }
}
