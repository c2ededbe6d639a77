package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.filter.BatchFilter;
import dev.riffle.core.kv.LookupsInFlight;
import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.read.ReadIntent;
import dev.riffle.core.read.ReadPath;
import dev.riffle.core.read.StoppingOffsets;
import dev.riffle.core.reader.SelectingReader;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.core.values.FlussValueReader;
import dev.riffle.sql.plan.ReadPlan;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.types.RowType;

/**
 * A prepared statement whose whole plan is one read of one table (a scan with its projection,
 * pushed conditions and limit, or a key lookup, and nothing computed above it): such a statement
 * can be answered with the read's Arrow batches as they are, at full precision, without turning
 * them into Calcite rows. Servers (the HTTP SQL endpoint, Flight SQL) ask for it with
 * {@link #of(PreparedStatement)} and fall back to the JDBC result set otherwise.
 *
 * <pre>{@code
 * Optional<DirectRead> direct = DirectRead.of(statement);
 * if (direct.isPresent()) {
 *     try (TableReader rows = direct.get().open(List.of(42), allocator)) { ... }
 * }
 * }</pre>
 */
public final class DirectRead {
    /** Where the planner leaves a statement's direct read, among the signature's internal parameters. */
    public static final String KEY = "riffle.directRead";

    private final FlussSession session;
    private final ReadPlan plan;
    private final ScanExecutor executor;
    private final int[] columns;
    private final List<String> names;
    /** What {@link #lookUp} answers in, once made (racing threads make the same). */
    private volatile LookedUpRows.Columns lookedUp;

    /**
     * The read of {@code plan}'s rows, answering its {@code columns} (indexes into the plan's
     * columns, each at most once) as {@code names}: what the planner makes of a plan that is one
     * read ({@code DirectReadMatcher}).
     */
    public DirectRead(FlussSession session, ReadPlan plan, int[] columns, List<String> names) {
        this.session = requireNonNull(session, "session is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.executor = new ScanExecutor(session, plan);
        this.columns = columns.clone();
        this.names = List.copyOf(names);
    }

    /** The direct read of a statement prepared by the {@code jdbc:riffle} driver, when its plan is one. */
    public static Optional<DirectRead> of(PreparedStatement statement) throws SQLException {
        if (!statement.isWrapperFor(AvaticaPreparedStatement.class)) {
            return Optional.empty();
        }
        Meta.StatementHandle handle = statement.unwrap(AvaticaPreparedStatement.class).handle;
        if (handle == null || handle.signature == null || handle.signature.internalParameters == null) {
            return Optional.empty();
        }
        return Optional.ofNullable((DirectRead) handle.signature.internalParameters.get(KEY));
    }

    /** What is read. */
    public ReadPlan plan() {
        return plan;
    }

    /** The statement's column names, in order. */
    public List<String> columnNames() {
        return names;
    }

    /**
     * The statement's rows as Arrow batches allocated from {@code allocator}, its {@code ?}
     * parameters bound to {@code parameters}
     * (Calcite's values, as JDBC setters make them: {@code Integer}, {@code Long},
     * {@code BigDecimal}, {@code String}, {@code Boolean}, ...).
     */
    public TableReader open(List<Object> parameters, BufferAllocator allocator) {
        return open(new ParameterValues(parameters), allocator);
    }

    /** The rows as {@link #open(List, BufferAllocator)} reads them, the parameters bound in an execution's context. */
    TableReader open(DataContext context, BufferAllocator allocator) {
        requireNonNull(allocator, "allocator is null");
        long limit = Bindings.limit(plan, context);
        return new SelectingReader(executor.reader(context, limit, allocator), BatchFilter.all(), limit, columns,
                names);
    }

    /**
     * The rows {@link #open(List, BufferAllocator)} answers, when the statement is a key lookup (of
     * whole primary keys or of a bucket-key prefix): once the keys are found, with no thread waiting
     * for the answers meanwhile, and as the found rows themselves, not as an Arrow batch, so a server
     * can answer many point queries at once cheaply. Empty for a table read.
     *
     * <pre>{@code
     * direct.lookUp(List.of(42)).ifPresent(found -> found.thenAccept(rows -> render(rows)));
     * }</pre>
     */
    public Optional<CompletableFuture<LookedUpRows>> lookUp(List<Object> parameters) {
        ParameterValues context = new ParameterValues(parameters);
        long limit = Bindings.limit(plan, context);
        return executor.rowsOnceFound(context).map(found -> found.thenApply(rows -> new LookedUpRows(
                rows.size() > limit ? rows.subList(0, (int) limit) : rows, lookedUpColumns())));
    }

    /** The statement's columns as {@link #lookUp} answers them; made once, on first use. */
    private LookedUpRows.Columns lookedUpColumns() {
        LookedUpRows.Columns known = lookedUp;
        if (known == null) {
            RowType rowType = plan.table().getRowType();
            List<Integer> fields = new ArrayList<>(columns.length);
            for (int column : columns) {
                fields.add(plan.columns().get(column));
            }
            int[] read = plan.columns().stream().mapToInt(Integer::intValue).toArray();
            Schema schema = SelectingReader.selectedSchema(ArrowTypeMapping.toArrowSchema(rowType.project(read)),
                    columns, names);
            known = new LookedUpRows.Columns(schema, fields,
                    fields.stream().map(field -> FlussValueReader.of(rowType.getTypeAt(field))).toList(), rowType);
            lookedUp = known;
        }
        return known;
    }

    /** Whether the statement is a key lookup, which {@link #lookUp} answers. */
    public boolean isKeyLookup() {
        return plan.access() instanceof ReadPlan.Lookup || plan.access() instanceof ReadPlan.PrefixLookup;
    }

    /**
     * Whether the table this read was planned for has since been dropped, created again or
     * altered, as its session's metadata (at most a second old) says: then it must be planned anew.
     */
    public boolean stale() {
        return PreparedTables.changed(plan.table(), session);
    }

    /**
     * Whether {@link #lookUp} can be sent now asking the cluster nothing, and the read is not
     * {@link #stale}: the table's metadata checked within the last second is the one it was planned
     * for, its handle is open, and it is not partitioned (a partition's metadata may be fetched on
     * the caller's thread). What a caller that must not wait (a server's selector thread) checks
     * instead of {@link #stale}, which may ask the cluster; it then sends the lookups with
     * {@link #lookUpWithoutWaiting}.
     */
    public boolean answersWithoutAsking() {
        TableInfo planned = plan.table();
        return !planned.isPartitioned() && session.hasOpen(planned) && session.knownTableInfo(planned.getTablePath())
                .filter(now -> PreparedTables.sameVersion(planned, now)).isPresent();
    }

    /**
     * As {@link #lookUp}, for a thread that must not wait: empty also when Fluss's lookup queue has
     * no room for the statement's keys now ({@link LookupsInFlight}), when another thread should
     * send them.
     */
    public Optional<CompletableFuture<LookedUpRows>> lookUpWithoutWaiting(List<Object> parameters) {
        int lookups = plan.access() instanceof ReadPlan.Lookup lookup ? lookup.keys().size() : 1;
        Optional<LookupsInFlight.Reservation> room = session.lookupsInFlight().tryReserve(lookups);
        if (room.isEmpty()) {
            return Optional.empty();
        }
        try (LookupsInFlight.Reservation reserved = room.get()) {
            return lookUp(parameters);
        }
    }

    /**
     * Where this read, with these parameters, would stop in each bucket, when it is a log or
     * changelog read without a row limit: a read that can be cut into parts by buckets
     * ({@link #open(List, BufferAllocator, Map)}), each part reading its buckets up to these offsets.
     */
    public Optional<Map<BucketRef, Long>> stopOffsets(List<Object> parameters, BufferAllocator allocator) {
        ParameterValues context = new ParameterValues(parameters);
        long limit = Bindings.limit(plan, context);
        if (limit != Long.MAX_VALUE) {
            return Optional.empty();
        }
        Optional<ReadBuilder> read = executor.read(context, limit, allocator);
        if (read.isEmpty() || (read.get().path() != ReadPath.LOG_SCAN && read.get().path() != ReadPath.CHANGELOG_SCAN)) {
            return Optional.empty();
        }
        return Optional.of(read.get().stopOffsets());
    }

    /** One part of the read: the buckets of {@code part}, each up to its offset (see {@link #stopOffsets}). */
    public TableReader open(List<Object> parameters, BufferAllocator allocator, Map<BucketRef, Long> part) {
        requireNonNull(allocator, "allocator is null");
        requireNonNull(part, "part is null");
        ParameterValues context = new ParameterValues(parameters);
        long limit = Bindings.limit(plan, context);
        ReadBuilder read = executor.read(context, limit, allocator).orElseThrow(() -> new IllegalArgumentException(
                "Only a table read can be read in parts; this statement is a key lookup"));
        if (read.intent() == ReadIntent.CURRENT && read.path() == ReadPath.LOG_SCAN) {
            read = read.log(); // a log table's current rows are its log; a part of it is a range of it
        }
        return new SelectingReader(read.until(StoppingOffsets.explicit(part)).createReader(), BatchFilter.all(), limit,
                columns, names);
    }
}
