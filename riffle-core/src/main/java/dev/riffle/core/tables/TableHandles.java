package dev.riffle.core.tables;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.kv.KeyLookup;
import dev.riffle.core.kv.LookuperPool;
import dev.riffle.core.kv.LookupsInFlight;
import dev.riffle.core.rpc.RetryingTables;
import dev.riffle.core.write.ArrowLogAppender;
import dev.riffle.core.write.TableWrite;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One session's open Fluss table handles, their metadata, and their lookupers, kept for all the
 * session's work (a server's requests and the statements of its SQL engine alike) and closed with
 * it. Opening a handle asks the cluster for the table's metadata under the Fluss client's one
 * metadata lock, so opening one per request serialises every request behind a metadata round
 * trip. A handle is keyed by the table's id: a table dropped and created again gets a new one
 * (fresh metadata says which id is current), and the old one is closed (a request still holding
 * the older metadata meanwhile gets a handle of its own, closed with the session or at the table's
 * next version).
 *
 * <pre>{@code
 * TableInfo info = handles.info(path);
 * CompletableFuture<List<List<InternalRow>>> rows = handles.lookup(info).send(List.of(key));
 * }</pre>
 *
 * <p>Lookupers: a Fluss {@link org.apache.fluss.client.lookup.Lookuper} reuses its key encoder, so
 * one must not be used by two threads at once, and making one per request cost more than the rest of a point lookup's
 * client-side work. Idle lookupers wait in a queue per table; a lookup takes one, sends its key
 * (encoded before {@code lookup} returns) and gives it back at once, while the answer is still on
 * its way.
 *
 * <p>Values made from a table version's metadata ({@link SchemaDerived}) are kept beside its handle,
 * so that the routes do not make them per request, nor keep second caches that a session's own
 * metadata would have to be matched against.
 */
public final class TableHandles implements AutoCloseable {
    private final AtomicLong tablesOpened = new AtomicLong();
    private final AtomicLong tablesClosed = new AtomicLong();
    private final AtomicLong catalogVersion = new AtomicLong();
    private static final Logger LOG = LoggerFactory.getLogger(TableHandles.class);

    /** How long a table's metadata is trusted before it is asked for again. */
    static final long METADATA_TTL_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** A handle serves one table under one schema: a table created again, or altered, gets new handles. */
    private record Key(TablePath path, long tableId, int schemaId) {
        static Key of(TableInfo info) {
            return new Key(info.getTablePath(), info.getTableId(), info.getSchemaId());
        }

        /** An earlier version of {@code other}'s table: created before it (a smaller id), or altered since (a smaller schema id). */
        boolean olderThan(Key other) {
            return path.equals(other.path)
                    && (tableId < other.tableId || (tableId == other.tableId && schemaId < other.schemaId));
        }
    }

    private record Known(TableInfo info, long atNanos) {}

    /**
     * An open handle, the values made from its table version's metadata ({@link SchemaDerived}),
     * and the appender of Riffle-made log batches for that version, once one is asked for.
     */
    private record Handle(Table table, Map<SchemaDerived<?>, Object> derived,
            AtomicReference<ArrowLogAppender> appender) {
        Handle(Table table) {
            this(table, new ConcurrentHashMap<>(), new AtomicReference<>());
        }
    }

    private final Riffle riffle;
    private final Map<TablePath, Known> infos = new ConcurrentHashMap<>();
    private final Map<Key, Handle> open = new ConcurrentHashMap<>();
    private final LookuperPool lookupers;
    private volatile boolean closed;

    /** @param riffle the session's connection; the handles are opened on it and closed before it */
    public TableHandles(Riffle riffle) {
        this.riffle = requireNonNull(riffle, "riffle is null");
        this.lookupers = new LookuperPool(riffle.connection());
    }

    /** The room of the session's lookups in Fluss's lookup queue, for a caller that must not wait ({@link LookupsInFlight#tryReserve}). */
    public LookupsInFlight lookupsInFlight() {
        return lookupers.lookupsInFlight();
    }

    /**
     * The table's metadata, asked of the cluster at most once a second (a round trip to the
     * coordinator per lookup would cost more than the lookup). A table dropped or created again is
     * noticed within that second.
     *
     * @throws dev.riffle.core.exception.TableNotFoundException naming the tables that exist
     */
    public TableInfo info(TablePath path) {
        return findRecent(path).orElseThrow(() -> riffle.notFound(path, null));
    }

    /**
     * The table's metadata asked of the cluster now, and kept for {@link #info}: for a caller that
     * found the kept metadata out of date (a column it lacks, a table id that is gone).
     *
     * @throws dev.riffle.core.exception.TableNotFoundException naming the tables that exist
     */
    public TableInfo freshInfo(TablePath path) {
        return find(path).orElseThrow(() -> riffle.notFound(path, null));
    }

    /**
     * The table's metadata asked of the cluster now (and kept for {@link #info}), or empty when it
     * does not exist: what a statement is planned against.
     */
    public Optional<TableInfo> find(TablePath path) {
        requireNonNull(path, "path is null");
        long now = System.nanoTime();
        Optional<TableInfo> info = riffle.findTable(path);
        Known before = info.isPresent() ? infos.put(path, new Known(info.get(), now)) : infos.remove(path);
        if (before != null && (info.isEmpty() || !sameVersion(before.info(), info.get()))) {
            // dropped, created again or altered elsewhere: what is derived from the catalog is made anew
            catalogVersion.incrementAndGet();
        }
        return info;
    }

    /**
     * As {@link #info}, empty when the table does not exist: metadata at most a second old, for a
     * caller checking that what it kept (a prepared statement's plan) still matches the table. A
     * missing table is asked for each time, so that one created elsewhere is seen at once.
     */
    public Optional<TableInfo> findRecent(TablePath path) {
        Known known = infos.get(path);
        if (known != null && System.nanoTime() - known.atNanos() < METADATA_TTL_NANOS) {
            return Optional.of(known.info());
        }
        return find(path);
    }

    /**
     * {@code path}'s metadata when {@link #info} and {@link #table} would answer it without asking
     * the cluster (known within the last second, its handle open); for a caller that must not wait.
     */
    public Optional<TableInfo> recentInfo(TablePath path) {
        Known known = infos.get(path);
        if (known == null || System.nanoTime() - known.atNanos() >= METADATA_TTL_NANOS
                || !open.containsKey(Key.of(known.info()))) {
            return Optional.empty();
        }
        return Optional.of(known.info());
    }

    /**
     * {@code path}'s metadata when a key lookup in it can be sent without waiting for anything but
     * room in the lookup queue ({@link LookupsInFlight#tryReserve}): known within the last second,
     * its handle open ({@link #recentInfo}), and the table not partitioned (a partition's metadata
     * may be fetched on the sending thread). The one rule of every surface's lookups taken on a
     * thread that must not wait (the gateway's selector, a SQL point query answered there).
     */
    public Optional<TableInfo> readyForLookup(TablePath path) {
        return recentInfo(path).filter(info -> !info.isPartitioned());
    }

    /** Whether two descriptions are of one table version: not dropped, created again or altered between them. */
    public static boolean sameVersion(TableInfo one, TableInfo other) {
        return Key.of(one).equals(Key.of(other));
    }

    /**
     * How many times this session saw its catalog change: a table dropped, created again or altered
     * (through it, or noticed in fresh metadata), or {@link #catalogChanged} called. What is derived
     * from the whole catalog (PostgreSQL's system catalogs) is made anew when it moved.
     */
    public long catalogVersion() {
        return catalogVersion.get();
    }

    /** Notes a change of the catalog that no table path names (a database created or dropped). */
    public void catalogChanged() {
        catalogVersion.incrementAndGet();
    }

    /** Whether {@code info}'s table version has its handle open (asking for it would open nothing). */
    public boolean hasOpen(TableInfo info) {
        return open.containsKey(Key.of(info));
    }

    /**
     * Forgets {@code path}: its metadata, its handles (closed) and their lookupers. For a change
     * made through this process (a table dropped, created again or altered), which the next request
     * must see at once rather than within the second the metadata is trusted.
     */
    public void forget(TablePath path) {
        requireNonNull(path, "path is null");
        catalogVersion.incrementAndGet();
        infos.remove(path);
        lookupers.forget(path);
        open.entrySet().removeIf(entry -> {
            boolean of = entry.getKey().path().equals(path);
            if (of) {
                closeQuietly(entry.getValue().table());
            }
            return of;
        });
    }

    /** The open handle of {@code info}'s table; not to be closed by the caller. */
    public Table table(TableInfo info) {
        return handle(info).table();
    }

    /**
     * The {@code kind} of value made from {@code info}'s metadata, made at most once per table id
     * and schema while this session keeps that version's handle open (a table created again or
     * altered gets new handles, and so new values).
     */
    public <T> T derived(TableInfo info, SchemaDerived<T> kind) {
        requireNonNull(kind, "kind is null");
        Object made = handle(info).derived().computeIfAbsent(kind, k -> kind.make(info));
        @SuppressWarnings("unchecked") // the map holds each kind's value under that kind alone
        T value = (T) made;
        return value;
    }

    /**
     * The session's appender of Riffle-made log batches to {@code info}'s table version
     * ({@link ArrowLogAppender#takes} must hold): one idempotent writer per session and version,
     * so that the batches of all its requests follow one sequence per bucket.
     */
    public ArrowLogAppender logAppender(TableInfo info) {
        AtomicReference<ArrowLogAppender> kept = handle(info).appender();
        ArrowLogAppender appender = kept.get();
        if (appender == null) {
            kept.compareAndSet(null, new ArrowLogAppender(riffle.connection(), info));
            appender = kept.get();
        }
        return appender;
    }

    /**
     * A write to {@code info}'s table version through its open handle and, for a log table's Arrow
     * batches, the session's appender ({@link #logAppender}).
     *
     * <pre>{@code
     * TableWrite write = handles.write(info).delete().open();
     * }</pre>
     */
    public TableWrite.Builder write(TableInfo info) {
        return TableWrite.to(info, table(info), () -> logAppender(info));
    }

    private Handle handle(TableInfo info) {
        checkOpen();
        Key key = Key.of(info);
        Handle handle = open.get(key);
        if (handle != null) {
            return handle;
        }
        Handle opened = open.computeIfAbsent(key, k -> {
            Table table = RetryingTables.open(riffle.connection(), k.path());
            tablesOpened.incrementAndGet();
            return new Handle(table);
        });
        // Only earlier versions are closed: a request that still holds older metadata (taken
        // before an alteration) gets a handle of its own, and must not close the newer one that
        // other requests are using meanwhile.
        open.entrySet().removeIf(entry -> {
            boolean stale = entry.getKey().olderThan(key);
            if (stale) {
                closeQuietly(entry.getValue().table());
            }
            return stale;
        });
        lookupers.retainOnly(key.path(), opened.table().getTableInfo());
        return opened;
    }

    /**
     * Key lookups in {@code info}'s table version through its open handle and the session's
     * lookupers (by the whole primary key; {@link KeyLookup#byPrefix} for a prefix).
     *
     * <pre>{@code
     * CompletableFuture<List<List<InternalRow>>> rows = handles.lookup(info).send(List.of(key));
     * }</pre>
     */
    public KeyLookup lookup(TableInfo info) {
        checkOpen();
        return new KeyLookup(lookupers, table(info), List.of());
    }

    /** How many table handles were ever opened. */
    public long tablesOpened() {
        return tablesOpened.get();
    }

    /** How many table handles were closed (all of them, once the handles are closed). */
    public long tablesClosed() {
        return tablesClosed.get();
    }

    /** How many table handles are open (0 once closed). */
    public int openHandles() {
        return open.size();
    }

    /** Closes every handle; later calls fail. */
    @Override
    public void close() {
        closed = true;
        List<Table> tables = open.values().stream().map(Handle::table).toList();
        open.clear();
        lookupers.clear();
        infos.clear();
        tables.forEach(this::closeQuietly);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("The session's table handles are closed");
        }
    }

    private void closeQuietly(Table table) {
        tablesClosed.incrementAndGet();
        try {
            table.close();
        } catch (Exception e) {
            LOG.debug("Closing a table handle failed", e);
        }
    }
}
