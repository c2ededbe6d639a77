package dev.riffle.sql.dialect;

/**
 * The PostgreSQL release Riffle's PostgreSQL dialect presents itself as: what {@code version()}
 * and the catalogs say, and the {@code server_version} the PostgreSQL port reports at startup.
 * Tools choose their catalog queries by it (Grafana reads {@link #VERSION_NUM}).
 *
 * <pre>{@code
 * parameters.put("server_version", PostgresRelease.VERSION);
 * }</pre>
 */
public final class PostgresRelease {
    /** The release, as {@code server_version} says it. */
    public static final String VERSION = "14.0";
    /** {@link #VERSION} as {@code server_version_num} says it. */
    public static final String VERSION_NUM = "140000";

    private PostgresRelease() {}
}
