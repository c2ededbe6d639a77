package dev.riffle.pgwire.types;

import java.util.Optional;

/**
 * The PostgreSQL types Riffle's columns and parameters travel as: OID (fixed in PostgreSQL's
 * catalog, the same in every release), name, size ({@code -1}: variable) and, for a scalar, the
 * OID of its array type.
 *
 * <pre>{@code
 * PgType.INT8.oid();        // 20
 * PgType.INT8.arrayOid();   // 1016
 * }</pre>
 */
public enum PgType {
    BOOL(16, "bool", 1, 1000),
    BYTEA(17, "bytea", -1, 1001),
    INT8(20, "int8", 8, 1016),
    INT2(21, "int2", 2, 1005),
    INT4(23, "int4", 4, 1007),
    TEXT(25, "text", -1, 1009),
    JSON(114, "json", -1, 199),
    FLOAT4(700, "float4", 4, 1021),
    FLOAT8(701, "float8", 8, 1022),
    UNKNOWN(705, "unknown", -2, 0),
    VARCHAR(1043, "varchar", -1, 1015),
    DATE(1082, "date", 4, 1182),
    TIME(1083, "time", 8, 1183),
    TIMESTAMP(1114, "timestamp", 8, 1115),
    TIMESTAMPTZ(1184, "timestamptz", 8, 1185),
    NUMERIC(1700, "numeric", -1, 1231);

    private final int oid;
    private final String typeName;
    private final short size;
    private final int arrayOid;

    PgType(int oid, String typeName, int size, int arrayOid) {
        this.oid = oid;
        this.typeName = typeName;
        this.size = (short) size;
        this.arrayOid = arrayOid;
    }

    public int oid() {
        return oid;
    }

    public String typeName() {
        return typeName;
    }

    /** {@code typlen}: bytes of a fixed-size type, -1 for variable length. */
    public short size() {
        return size;
    }

    public int arrayOid() {
        return arrayOid;
    }

    /** The type with this OID, or the scalar type whose array type it is. */
    public static Optional<PgType> ofOid(int oid) {
        for (PgType type : values()) {
            if (type.oid == oid) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
