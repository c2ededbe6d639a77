package dev.riffle.core.read;

import static java.util.Objects.requireNonNull;

import org.apache.fluss.metadata.TableInfo;

/**
 * Which reader serves a read: decided in this one place from the table and what the read asks,
 * before anything is read, so that a plan can name the path (SQL's {@code EXPLAIN}) and the read
 * façade takes the same one.
 *
 * <pre>{@code
 * ReadPath path = ReadPath.choose(table, ReadIntent.CURRENT, true, false, true);   // KV_LIMIT_SCAN for a PK table
 * }</pre>
 */
public enum ReadPath {
    /** The lake snapshot, then the log past it (merged by key for primary-key tables). */
    UNION_SCAN("UnionScan"),
    /** The lake snapshot alone. */
    LAKE_SCAN("LakeScan"),
    /** The log between a start and a stop. */
    LOG_SCAN("LogScan"),
    /** Every change between a start and a stop, with change types. */
    CHANGELOG_SCAN("ChangelogScan"),
    /**
     * A primary-key table's rows by key, from Fluss: each bucket's latest KV snapshot with the
     * changelog after it applied (the whole changelog for a bucket not snapshotted yet).
     */
    SNAPSHOT_SCAN("SnapshotScan"),
    /** Up to N rows of a primary-key table straight from its KV store. */
    KV_LIMIT_SCAN("kv");

    private final String displayName;

    ReadPath(String displayName) {
        this.displayName = displayName;
    }

    /** As a plan shows it. */
    public String displayName() {
        return displayName;
    }

    /**
     * @param lake whether a datalake-enabled table's current rows come through its lake (false: from Fluss alone);
     *     a primary-key table's bare limit reads its KV store either way
     * @param filtered whether the read has a row filter
     * @param limited whether the read has a row limit
     */
    public static ReadPath choose(TableInfo table, ReadIntent intent, boolean lake, boolean filtered,
            boolean limited) {
        requireNonNull(table, "table is null");
        return switch (requireNonNull(intent, "intent is null")) {
            case LOG -> LOG_SCAN;
            case CHANGELOG -> CHANGELOG_SCAN;
            case LAKE -> LAKE_SCAN;
            case CURRENT -> {
                // The KV store's limit scan returns any N current rows: right for a bare LIMIT, wrong
                // under a filter. It holds every key's current row whether or not the table is
                // tiered, and answers a page without merging the lake snapshot with the log tail,
                // whose cost grows with the tail between tiering rounds.
                if (table.hasPrimaryKey() && limited && !filtered) {
                    yield KV_LIMIT_SCAN;
                }
                if (lake && table.getTableConfig().isDataLakeEnabled()) {
                    yield UNION_SCAN;
                }
                yield table.hasPrimaryKey() ? SNAPSHOT_SCAN : LOG_SCAN;
            }
        };
    }
}
