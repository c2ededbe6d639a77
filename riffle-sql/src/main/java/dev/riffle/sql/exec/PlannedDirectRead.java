package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.filter.BatchFilter;
import dev.riffle.core.kv.LookupsInFlight;
import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.read.ReadIntent;
import dev.riffle.core.read.ReadPath;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.read.StoppingOffsets;
import dev.riffle.core.reader.SelectingReader;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.tables.TableHandles;
import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.core.values.FlussValueReader;
import dev.riffle.sql.plan.ReadPlan;
import dev.riffle.sql.statement.BucketOffsets;
import dev.riffle.sql.statement.DirectRead;
import dev.riffle.sql.statement.LookedUpRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.DataContext;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.types.RowType;

/**
 * The {@link DirectRead} of a plan that is one {@link ScanExecutor} read: what the planner's
 * {@code DirectReadMatcher} makes, and what a write whose input is such a read reads from.
 */
public final class PlannedDirectRead implements DirectRead {
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
    public PlannedDirectRead(FlussSession session, ReadPlan plan, int[] columns, List<String> names) {
        this.session = requireNonNull(session, "session is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.executor = new ScanExecutor(session, plan);
        this.columns = columns.clone();
        this.names = List.copyOf(names);
    }

    /** What is read. */
    public ReadPlan plan() {
        return plan;
    }

    @Override
    public List<String> columnNames() {
        return names;
    }

    @Override
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

    @Override
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

    @Override
    public boolean isKeyLookup() {
        return plan.access() instanceof ReadPlan.Lookup || plan.access() instanceof ReadPlan.PrefixLookup;
    }

    @Override
    public boolean stale() {
        return PreparedTables.changed(plan.table(), session);
    }

    @Override
    public boolean answersWithoutAsking() {
        TableInfo planned = plan.table();
        return session.readyForLookup(planned.getTablePath())
                .filter(now -> TableHandles.sameVersion(planned, now)).isPresent();
    }

    @Override
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

    @Override
    public Optional<BucketOffsets> offsets(List<Object> parameters, BufferAllocator allocator) {
        ParameterValues context = new ParameterValues(parameters);
        long limit = Bindings.limit(plan, context);
        if (limit != Long.MAX_VALUE) {
            return Optional.empty();
        }
        Optional<ReadBuilder> read = executor.read(context, limit, allocator);
        if (read.isEmpty() || (read.get().path() != ReadPath.LOG_SCAN && read.get().path() != ReadPath.CHANGELOG_SCAN)) {
            return Optional.empty();
        }
        // Stops first: rows that arrive while the starts are listed stay out, as in a read's own start.
        Map<BucketRef, Long> stops = read.get().stopOffsets();
        Map<BucketRef, Long> starts = read.get().startOffsets();
        // Each call lists a partitioned table's partitions anew: a partition made or dropped in
        // between leaves starts for other buckets than the stops. The parts then find their own
        // starts when they open, as before starts were carried.
        return Optional.of(new BucketOffsets(starts.keySet().equals(stops.keySet()) ? starts : Map.of(), stops));
    }

    @Override
    public TableReader open(List<Object> parameters, BufferAllocator allocator, BucketOffsets part) {
        requireNonNull(allocator, "allocator is null");
        requireNonNull(part, "part is null");
        ParameterValues context = new ParameterValues(parameters);
        long limit = Bindings.limit(plan, context);
        ReadBuilder read = executor.read(context, limit, allocator).orElseThrow(() -> new IllegalArgumentException(
                "Only a table read can be read in parts; this statement is a key lookup"));
        if (read.intent() == ReadIntent.CURRENT && read.path() == ReadPath.LOG_SCAN) {
            read = read.log(); // a log table's current rows are its log; a part of it is a range of it
        }
        read = read.until(StoppingOffsets.explicit(part.stops()));
        if (!part.starts().isEmpty()) {
            // Captured with the stops: not listed again. On a busy tablet server a part's ListOffsets
            // waited behind the fetches of the parts already streaming (15-145 ms before its first batch).
            read = read.from(StartingOffsets.listed(part.starts()));
        }
        return new SelectingReader(read.createReader(), BatchFilter.all(), limit, columns, names);
    }
}
