package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.kv.KeyLookup;
import dev.riffle.core.kv.LookupsInFlight;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.tables.TableHandles;
import dev.riffle.core.write.TableWrite;
import dev.riffle.sql.statement.StatementLimits;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.config.Configuration;
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

    /** The table handles and lookupers: the server session's own when it gave them, else this session's. */
    private final TableHandles handles;
    private final boolean ownsHandles;
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

    /**
     * The table's metadata as the cluster gives it now, or empty when it does not exist: what a
     * statement is planned against. It is kept in the session's {@link TableHandles}, the one
     * cache of table versions that the session's requests and statements share.
     */
    public Optional<TableInfo> tableInfo(TablePath path) {
        return handles.find(path);
    }

    /**
     * The table's metadata at most a second old ({@link TableHandles#findRecent}): what a statement
     * kept for reuse is checked against before it runs again (one metadata round trip per table
     * per second, not per execution).
     */
    public Optional<TableInfo> recentTableInfo(TablePath path) {
        return handles.findRecent(path);
    }

    /** {@code path}'s metadata when a key lookup in it can be sent without waiting ({@link TableHandles#readyForLookup}). */
    public Optional<TableInfo> readyForLookup(TablePath path) {
        return handles.readyForLookup(path);
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
        return handles.table(info);
    }

    /** A write to {@code info}'s table version through the session's handles ({@link TableHandles#write}). */
    public TableWrite.Builder write(TableInfo info) {
        return handles.write(info);
    }

    /** Key lookups in {@code info}'s table version, through the session's lookupers ({@link TableHandles#lookup}). */
    public KeyLookup lookup(TableInfo info) {
        return handles.lookup(info);
    }

    /**
     * How many times this session saw its catalog change ({@link TableHandles#catalogVersion}):
     * what is derived from the catalog (PostgreSQL's system catalogs) is made anew when it moved.
     */
    public long catalogVersion() {
        return handles.catalogVersion();
    }

    /** Notes that DDL through this session changed the catalog. */
    public void catalogChanged() {
        handles.catalogChanged();
    }

    /** Forgets cached metadata and handles of a table (after DROP TABLE, or when its id changed). */
    public void forget(TablePath path) {
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
