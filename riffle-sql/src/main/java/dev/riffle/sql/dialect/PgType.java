package dev.riffle.sql.dialect;

import java.util.Optional;

/**
 * The PostgreSQL types Riffle's columns, parameters and system catalogs are typed as: OID (fixed in
 * PostgreSQL's catalog, the same in every release), name, size ({@code -1}: variable), the OID of
 * its array type, its category ({@code pg_type.typcategory}) and the names of its I/O functions
 * (what {@code pg_type.typinput}, {@code typoutput}, {@code typreceive} and {@code typsend} say:
 * drivers such as ADBC's choose how to read a column by them).
 *
 * <pre>{@code
 * PgType.INT8.oid();        // 20
 * PgType.INT8.arrayOid();   // 1016
 * }</pre>
 */
public enum PgType {
    BOOL(16, "bool", 1, 1000, 'B', "bool"),
    BYTEA(17, "bytea", -1, 1001, 'U', "bytea"),
    CHAR(18, "char", 1, 1002, 'Z', "char"),
    NAME(19, "name", 64, 1003, 'S', "name"),
    INT8(20, "int8", 8, 1016, 'N', "int8"),
    INT2(21, "int2", 2, 1005, 'N', "int2"),
    INT2VECTOR(22, "int2vector", -1, 1006, 'A', "int2vector"),
    INT4(23, "int4", 4, 1007, 'N', "int4"),
    REGPROC(24, "regproc", 4, 1008, 'N', "regproc"),
    TEXT(25, "text", -1, 1009, 'S', "text"),
    OID(26, "oid", 4, 1028, 'N', "oid"),
    OIDVECTOR(30, "oidvector", -1, 1013, 'A', "oidvector"),
    JSON(114, "json", -1, 199, 'U', "json"),
    FLOAT4(700, "float4", 4, 1021, 'N', "float4"),
    FLOAT8(701, "float8", 8, 1022, 'N', "float8"),
    UNKNOWN(705, "unknown", -2, 0, 'X', "unknown"),
    BPCHAR(1042, "bpchar", -1, 1014, 'S', "bpchar"),
    VARCHAR(1043, "varchar", -1, 1015, 'S', "varchar"),
    DATE(1082, "date", 4, 1182, 'D', "date_"),
    TIME(1083, "time", 8, 1183, 'D', "time_"),
    TIMESTAMP(1114, "timestamp", 8, 1115, 'D', "timestamp_"),
    TIMESTAMPTZ(1184, "timestamptz", 8, 1185, 'D', "timestamptz_"),
    INTERVAL(1186, "interval", 16, 1187, 'T', "interval_"),
    NUMERIC(1700, "numeric", -1, 1231, 'N', "numeric_"),
    REGCLASS(2205, "regclass", 4, 2210, 'N', "regclass"),
    REGTYPE(2206, "regtype", 4, 2211, 'N', "regtype"),
    UUID(2950, "uuid", 16, 2951, 'U', "uuid_"),
    JSONB(3802, "jsonb", -1, 3807, 'U', "jsonb_"),
    REGNAMESPACE(4089, "regnamespace", 4, 4090, 'N', "regnamespace");

    private final int oid;
    private final String typeName;
    private final short size;
    private final int arrayOid;
    private final char category;
    /** The stem of its I/O functions' names: {@code int4} makes int4in, {@code date_} date_in. */
    private final String io;

    PgType(int oid, String typeName, int size, int arrayOid, char category, String io) {
        this.oid = oid;
        this.typeName = typeName;
        this.size = (short) size;
        this.arrayOid = arrayOid;
        this.category = category;
        this.io = io;
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

    /** {@code typcategory}: B boolean, N numeric, S string, D date/time, U user, A array, ... */
    public char category() {
        return category;
    }

    /** {@code typinput}, {@code typoutput}, {@code typreceive}, {@code typsend}: int4in, int4out, int4recv, int4send. */
    public String input() {
        return io + "in";
    }

    public String output() {
        return io + "out";
    }

    public String receive() {
        return io + "recv";
    }

    public String send() {
        return io + "send";
    }

    /** Whether a value of it is passed by value ({@code typbyval}). */
    public boolean byValue() {
        return size > 0 && size <= 8 && this != NAME && this != UUID && this != INTERVAL;
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

    /** The scalar type whose array type has this OID. */
    public static Optional<PgType> ofArrayOid(int oid) {
        for (PgType type : values()) {
            if (type.arrayOid == oid && oid != 0) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    /** The type called {@code name} ({@code int4}, {@code varchar}). */
    public static Optional<PgType> named(String name) {
        for (PgType type : values()) {
            if (type.typeName.equalsIgnoreCase(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
