package dev.riffle.gateway.http;

/**
 * Every route's path, once: the route table registers these and the {@code @OpenApi} annotations
 * describe these, so the two cannot drift apart.
 */
public final class Paths {
    public static final String HEALTH = "/health";
    public static final String READY = "/ready";
    public static final String METRICS = "/metrics";
    public static final String OPENAPI = "/openapi.json";

    public static final String DATABASES = "/v1/databases";
    public static final String DATABASE = "/v1/databases/{db}";
    public static final String TABLES = "/v1/databases/{db}/tables";
    public static final String TABLE = "/v1/databases/{db}/tables/{table}";
    public static final String PARTITIONS = TABLE + "/partitions";
    public static final String PARTITION = TABLE + "/partitions/{partition}";
    public static final String OFFSETS = TABLE + "/offsets";
    public static final String ROWS = TABLE + "/rows";
    public static final String ROW = TABLE + "/rows/{key}";
    public static final String LOOKUP = TABLE + "/lookup";
    public static final String PREFIX_LOOKUP = TABLE + "/prefix-lookup";
    public static final String SCAN = TABLE + "/scan";
    public static final String TABLE_TIERING = TABLE + "/tiering";
    public static final String SQL = "/v1/sql";
    public static final String STATEMENTS = "/v1/statements";
    public static final String STATEMENT = STATEMENTS + "/{id}";
    public static final String TIERING = "/v1/tiering";

    private Paths() {}
}
