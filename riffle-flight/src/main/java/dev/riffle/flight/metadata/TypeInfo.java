package dev.riffle.flight.metadata;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Flight SQL's GetXdbcTypeInfo: the SQL types Riffle's tables have (each a Fluss type), as
 * JDBC's {@code getTypeInfo} lists them, with the names {@code CREATE TABLE} takes.
 */
public final class TypeInfo {
    private static final int NULLABLE = 1;
    private static final int SEARCHABLE = 3;
    private static final int DATETIME = 9;

    private record Type(String name, int jdbcType, Integer size, String prefix, String suffix, List<String> params,
            boolean caseSensitive, Boolean unsigned, boolean fixedScale, Integer minScale, Integer maxScale,
            Integer subcode, Integer radix) {
        Object[] row() {
            return new Object[] {name, jdbcType, size, prefix, suffix, params, NULLABLE, caseSensitive, SEARCHABLE,
                unsigned, fixedScale, false, name, minScale, maxScale, sqlDataType(), subcode, radix, null};
        }

        private int sqlDataType() {
            return subcode == null ? jdbcType : DATETIME;
        }
    }

    private static final List<Type> TYPES = List.of(
            number("TINYINT", Types.TINYINT, 3),
            number("SMALLINT", Types.SMALLINT, 5),
            number("INTEGER", Types.INTEGER, 10),
            number("BIGINT", Types.BIGINT, 19),
            new Type("REAL", Types.REAL, 7, null, null, null, false, false, false, null, null, null, 2),
            new Type("DOUBLE", Types.DOUBLE, 15, null, null, null, false, false, false, null, null, null, 2),
            new Type("DECIMAL", Types.DECIMAL, 38, null, null, List.of("precision", "scale"), false, false, true, 0,
                    38, null, 10),
            new Type("BOOLEAN", Types.BOOLEAN, 1, null, null, null, false, null, false, null, null, null, null),
            new Type("CHAR", Types.CHAR, Integer.MAX_VALUE, "'", "'", List.of("length"), true, null, false, null, null,
                    null, null),
            new Type("VARCHAR", Types.VARCHAR, Integer.MAX_VALUE, "'", "'", null, true, null, false, null, null, null,
                    null),
            new Type("BINARY", Types.BINARY, Integer.MAX_VALUE, "x'", "'", List.of("length"), false, null, false, null,
                    null, null, null),
            new Type("VARBINARY", Types.VARBINARY, Integer.MAX_VALUE, "x'", "'", null, false, null, false, null, null,
                    null, null),
            new Type("DATE", Types.DATE, 10, "DATE '", "'", null, false, null, false, null, null, 1, null),
            new Type("TIME", Types.TIME, 18, "TIME '", "'", List.of("precision"), false, null, false, 0, 9, 2, null),
            new Type("TIMESTAMP", Types.TIMESTAMP, 29, "TIMESTAMP '", "'", List.of("precision"), false, null, false, 0,
                    9, 3, null),
            new Type("TIMESTAMP_WITH_LOCAL_TIME_ZONE", Types.TIMESTAMP_WITH_TIMEZONE, 29, null, null,
                    List.of("precision"), false, null, false, 0, 9, 3, null),
            new Type("ARRAY", Types.ARRAY, null, null, null, List.of("element type"), false, null, false, null, null,
                    null, null),
            new Type("MAP", Types.OTHER, null, null, null, List.of("key type", "value type"), false, null, false, null,
                    null, null, null),
            new Type("ROW", Types.STRUCT, null, null, null, List.of("fields"), false, null, false, null, null, null,
                    null));

    private TypeInfo() {}

    /** Every type, or the ones of one JDBC type code. */
    public static VectorSchemaRoot of(Optional<Integer> dataType, BufferAllocator allocator) {
        List<Object[]> rows = new ArrayList<>();
        for (Type type : TYPES) {
            if (dataType.isEmpty() || dataType.get() == type.jdbcType()) {
                rows.add(type.row());
            }
        }
        return MetadataRows.of(Schemas.GET_TYPE_INFO_SCHEMA, rows, allocator);
    }

    private static Type number(String name, int jdbcType, int digits) {
        return new Type(name, jdbcType, digits, null, null, null, false, false, false, 0, 0, null, 10);
    }
}
