package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.kv.LookupsInFlight;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.tables.TableHandles;
import dev.riffle.core.write.TableWrite;
import dev.riffle.sql.statement.StatementLimits;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * What one SQL connection holds on to: a {@link Riffle} (Fluss connection, Arrow allocator and
 * the lake side, found once), and the Fluss table handles and lookupers that point queries
 * reuse ({@link TableHandles}: a server session's own, when the statements run in one). Thread-safe;
 * closed with the JDBC connection.
 */
public final class FlussSession implements AutoCloseable {
    /**
     * Point lookups wait this long for a batch to fill; a lone lookup always waits all of it, so
     * Fluss's 100 ms default (and even 1 ms) would dominate a point query.
     */
    public static final String DEFAULT_LOOKUP_BATCH_TIMEOUT = "100micros";
    /** How long a call to the cluster may take before it is reported as failed. */
    static final long TIMEOUT_SECONDS = 60;

    private final Riffle riffle;
    private final StatementLimits limits;
    private static final long RECENT_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

    /** The table handles and lookupers: the server session's own when it gave them, else this session's. */
    private final TableHandles handles;
    private final boolean ownsHandles;
    private final Map<TablePath, Recent> recent = new ConcurrentHashMap<>();

    private record Recent(Optional<TableInfo> info, long atNanos) {}
    private final java.util.concurrent.atomic.AtomicLong catalogVersion = new java.util.concurrent.atomic.AtomicLong();
    /** Counts {@link #read} calls ({@link #readsRequested}). */
    private final java.util.concurrent.atomic.LongAdder readsRequested = new java.util.concurrent.atomic.LongAdder();

    private FlussSession(Riffle riffle, StatementLimits limits, Optional<TableHandles> shared) {
        this.riffle = requireNonNull(riffle, "riffle is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.ownsHandles = shared.isEmpty();
        this.handles = shared.orElseGet(() -> new TableHandles(riffle));
    }

    /** Connects to {@code bootstrapServers}; {@code overrides} are extra Fluss client settings. */
    public static FlussSession connect(String bootstrapServers, Map<String, String> overrides) {
        return connect(bootstrapServers, overrides, StatementLimits.DEFAULT);
    }

    /** As {@link #connect(String, Map)}, with the statements' limits. */
    public static FlussSession connect(String bootstrapServers, Map<String, String> overrides,
            StatementLimits limits) {
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", requireNonNull(bootstrapServers, "bootstrapServers is null"));
        conf.setString("client.lookup.batch-timeout", DEFAULT_LOOKUP_BATCH_TIMEOUT);
        overrides.forEach(conf::setString);
        return new FlussSession(Riffle.connect(conf), limits, Optional.empty());
    }

    /**
     * A session over a connection someone else holds (a server's session: one Fluss connection for
     * every surface of a principal); closing the session closes its table handles, not
     * {@code riffle}'s connection or allocator.
     */
    public static FlussSession using(Riffle riffle, StatementLimits limits) {
        requireNonNull(riffle, "riffle is null");
        return new FlussSession(riffle.withAllocator(riffle.allocator()), limits, Optional.empty());
    }

    /**
     * As {@link #using(Riffle, StatementLimits)}, with the table handles and lookupers of the
     * server session the statements run in ({@code handles}, opened on the same connection), so
     * that the session keeps one handle per table version for its requests and its statements;
     * they stay the caller's to close.
     */
    public static FlussSession using(Riffle riffle, StatementLimits limits, TableHandles handles) {
        requireNonNull(riffle, "riffle is null");
        return new FlussSession(riffle.withAllocator(riffle.allocator()), limits,
                Optional.of(requireNonNull(handles, "handles is null")));
    }

    /** The room of this session's lookups in Fluss's lookup queue ({@link LookupsInFlight}). */
    public LookupsInFlight lookupsInFlight() {
        return handles.lookupsInFlight();
    }

    /** What this connection's statements may cost. */
    public StatementLimits limits() {
        return limits;
    }

    public Riffle riffle() {
        return riffle;
    }

    public Admin admin() {
        return riffle.admin();
    }

    public List<String> databases() {
        return await(admin().listDatabases(), "list the databases");
    }

    public List<String> tables(String database) {
        return await(admin().listTables(database), "list the tables of database " + database);
    }

    /** The table's metadata, or empty when it does not exist. */
    public Optional<TableInfo> tableInfo(TablePath path) {
        try {
            return Optional.of(admin().getTableInfo(path).get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TableNotExistException) {
                return Optional.empty();
            }
            throw new IllegalStateException("Cannot look up table " + path + ": " + e.getCause().getMessage(), e.getCause());
        } catch (Exception e) {
            throw failure("look up table " + path, e);
        }
    }

    /**
     * The table's metadata as the cluster gave it at most {@link #RECENT_NANOS} ago: what a
     * statement kept for reuse is checked against before it runs again (one metadata round trip
     * per table per second, not per execution).
     */
    public Optional<TableInfo> recentTableInfo(TablePath path) {
        Recent known = recent.get(path);
        long now = System.nanoTime();
        if (known != null && now - known.atNanos() < RECENT_NANOS) {
            return known.info();
        }
        Optional<TableInfo> info = tableInfo(path);
        recent.put(path, new Recent(info, now));
        return info;
    }

    /**
     * {@code path}'s metadata as {@link #recentTableInfo} knows it, without asking the cluster:
     * empty when it was not checked within the last second (or was found missing).
     */
    public Optional<TableInfo> knownTableInfo(TablePath path) {
        Recent known = recent.get(path);
        if (known == null || System.nanoTime() - known.atNanos() >= RECENT_NANOS) {
            return Optional.empty();
        }
        return known.info();
    }

    /** Whether {@link #table} has {@code info}'s table open already (it would open nothing now). */
    public boolean hasOpen(TableInfo info) {
        return handles.hasOpen(info);
    }

    /** A read of {@code table} through Riffle's read façade, on this session's connection and lake. */
    public ReadBuilder read(TableInfo table) {
        return read(table, riffle.allocator());
    }

    /** As {@link #read(TableInfo)}, its batches allocated from {@code allocator}. */
    public ReadBuilder read(TableInfo table, org.apache.arrow.memory.BufferAllocator allocator) {
        readsRequested.increment();
        return new ReadBuilder(riffle.connection(), table, allocator, riffle::lake);
    }

    /**
     * How many table reads this session was asked for (key lookups aside): what a statement costs
     * in reads, e.g. that a join reads each table once.
     */
    public long readsRequested() {
        return readsRequested.sum();
    }

    /**
     * The Fluss table handle of {@code info}'s table, opened once per session and again when the
     * table was created anew or altered since (a handle writes rows in the schema it was opened with).
     */
    public Table table(TableInfo info) {
        noteVersion(info);
        return handles.table(info);
    }

    /** A write to {@code info}'s table version through the session's handles ({@link TableHandles#write}). */
    public TableWrite.Builder write(TableInfo info) {
        noteVersion(info);
        return handles.write(info);
    }

    /** Before a handle of {@code info}'s version is opened: a table altered or created again elsewhere is planned anew. */
    private void noteVersion(TableInfo info) {
        if (!handles.hasOpen(info)) {
            Recent known = recent.get(info.getTablePath());
            if (known != null && known.info().isPresent() && !PreparedTables.sameVersion(known.info().get(), info)) {
                // altered or created again elsewhere: what is derived from the catalog is made anew
                recent.remove(info.getTablePath());
                catalogChanged();
            }
        }
    }

    /**
     * Runs {@code use} with a lookuper for the primary key ({@code lookupColumns} empty) or a prefix
     * of it that no other thread uses meanwhile ({@link LookuperPool}): connections of a pool share
     * this session. {@code use} must only send lookups, not wait for their answers.
     */
    public <T> T withLookuper(TableInfo info, List<String> lookupColumns,
            java.util.function.Function<Lookuper, T> use) {
        table(info);
        return handles.withLookuper(info, lookupColumns, use);
    }

    /**
     * How many times this session's catalog changed through it (DDL): what is derived from the
     * catalog (PostgreSQL's system catalogs) is made anew when it moved.
     */
    public long catalogVersion() {
        return catalogVersion.get();
    }

    /** Notes that DDL through this session changed the catalog. */
    public void catalogChanged() {
        catalogVersion.incrementAndGet();
    }

    /** Forgets cached handles of a table (after DROP TABLE, or when its id changed). */
    public void forget(TablePath path) {
        catalogChanged();
        recent.remove(path);
        handles.forget(path);
    }

    @Override
    public void close() throws Exception {
        if (ownsHandles) {
            handles.close();
        }
        riffle.close();
    }

    public static <T> T await(java.util.concurrent.CompletableFuture<T> future, String what) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw failure(what, e);
        }
    }

    /** A failure to do {@code what}, as {@link #await} reports it. */
    static RuntimeException failure(String what, Throwable e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        Throwable cause = (e instanceof ExecutionException || e instanceof java.util.concurrent.CompletionException)
                && e.getCause() != null ? e.getCause() : e;
        return new IllegalStateException("Cannot " + what + ": " + cause.getMessage(), cause);
    }

}
