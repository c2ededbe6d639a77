package dev.riffle.sql.dialect;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * The object ids Riffle's PostgreSQL catalog gives Fluss's objects, the same across restarts and
 * across servers (tools keep them between queries, and one query may reach another server behind a
 * load balancer): a table's id is PostgreSQL's first user OID plus the id Fluss gave the table (a
 * table dropped and created again gets a new one, as in PostgreSQL); its primary key's index that
 * plus {@link #INDEX_OFFSET}; a partition {@link #PARTITION_BASE} plus Fluss's id of it; a database
 * (a schema) one derived from its name. PostgreSQL's own
 * objects keep their fixed OIDs.
 *
 * <pre>{@code
 * Oids.table(7)          // 16391
 * Oids.namespace("shop") // the same number on every server, every day
 * }</pre>
 */
public final class Oids {
    /** PostgreSQL's first OID of a user's object. */
    public static final int FIRST_USER_OID = 16_384;
    /** What a table's primary-key index adds to the table's OID. */
    public static final int INDEX_OFFSET = 500_000_000;
    /** Where the OIDs of partitions start (after the databases'). */
    static final int PARTITION_BASE = 2_000_000_000;
    /** Where the OIDs of databases (schemas) start. */
    static final int NAMESPACE_BASE = 1_000_000_000;
    public static final int PG_CATALOG = 11;
    public static final int INFORMATION_SCHEMA = 13_000;
    /** The one role: the session's user (PostgreSQL's bootstrap superuser has OID 10). */
    public static final int ROLE = 10;
    /** The one database, {@code riffle}. */
    public static final int DATABASE = 16_383;
    /** The btree access method, which primary-key indexes are said to use. */
    public static final int BTREE = 403;
    /** The heap access method of tables. */
    public static final int HEAP = 2;
    /** The default tablespace. */
    public static final int TABLESPACE = 1663;
    /** pg_class's own OID (what {@code classoid} says of descriptions of relations). */
    public static final int PG_CLASS = 1259;
    public static final int PG_NAMESPACE = 2615;
    public static final int PG_CONSTRAINT = 2606;
    public static final int PG_DATABASE = 1262;

    private Oids() {}

    /** The OID of the Fluss table with id {@code tableId}. */
    public static int table(long tableId) {
        if (tableId < 0 || tableId >= INDEX_OFFSET - FIRST_USER_OID) {
            throw new IllegalArgumentException("Fluss table id " + tableId + " is outside what OIDs can hold");
        }
        return (int) (FIRST_USER_OID + tableId);
    }

    /** The OID of the primary-key index (and constraint) of the table with OID {@code table}. */
    public static int primaryKey(int table) {
        return table + INDEX_OFFSET;
    }

    /** The OID of the partition with Fluss's id {@code partitionId}. */
    public static int partition(long partitionId) {
        if (partitionId < 0 || partitionId > Integer.MAX_VALUE - PARTITION_BASE) {
            throw new IllegalArgumentException("Fluss partition id " + partitionId + " is outside what OIDs can hold");
        }
        return (int) (PARTITION_BASE + partitionId);
    }

    /** The OID of the schema a Fluss database is. */
    public static int namespace(String database) {
        CRC32 crc = new CRC32();
        crc.update(database.getBytes(StandardCharsets.UTF_8));
        return NAMESPACE_BASE + (int) (crc.getValue() % 1_000_000_000L);
    }
}
