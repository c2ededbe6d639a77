package dev.riffle.sql.exec;

import dev.riffle.core.kv.KeyLookup;
import dev.riffle.core.reader.TableReader;
import dev.riffle.sql.plan.ReadPlan;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.DataContext;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.row.InternalRow;

/**
 * What the two KV-store paths share: the rows their keys find, whole, answered as Calcite rows or
 * as Arrow batches in the plan's columns, through one of the session's lookupers for the plan's
 * lookup columns ({@link KeyLookup}: a pool's connections share the session's lookupers).
 */
abstract class KvLookupExecutor implements ScanExecutor.PathExecutor {
    final FlussSession session;
    final ReadPlan plan;
    private final List<String> lookupColumns;

    /** @param lookupColumns the columns the lookuper takes (none: the whole primary key) */
    KvLookupExecutor(FlussSession session, ReadPlan plan, List<String> lookupColumns) {
        this.session = session;
        this.plan = plan;
        this.lookupColumns = List.copyOf(lookupColumns);
    }

    /**
     * The rows one execution's keys find, whole (every column of the table), once they are found:
     * the keys are sent before this returns, and no thread waits for the answers.
     */
    abstract CompletableFuture<List<InternalRow>> find(DataContext context);

    /** What a failed lookup could not do, for its error ("look up a key of shop.orders"). */
    abstract String action();

    @Override
    public RowBatches open(DataContext context, long limit) {
        return RowBatches.of(CalciteRows.of(matching(found(context), context), plan.table().getRowType(),
                plan.columns()));
    }

    @Override
    public TableReader reader(DataContext context, long limit, BufferAllocator allocator) {
        return FoundRows.reader(matching(found(context), context), plan, allocator);
    }

    @Override
    public Optional<CompletableFuture<List<InternalRow>>> rowsOnceFound(DataContext context) {
        CompletableFuture<List<InternalRow>> found = find(context)
                .orTimeout(FlussSession.TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
        return Optional.of(found.handle((rows, failure) -> {
            if (failure != null) {
                throw new java.util.concurrent.CompletionException(FlussSession.failure(action(), failure));
            }
            return matching(rows, context);
        }));
    }

    private List<InternalRow> found(DataContext context) {
        return FlussSession.await(find(context), action());
    }

    /** The rows found that hold the conditions the plan absorbed ({@link ReadPlan#absorbs}). */
    private List<InternalRow> matching(List<InternalRow> found, DataContext context) {
        if (plan.filters().isEmpty() || found.isEmpty()) {
            return found;
        }
        ConditionPredicates conditions = new ConditionPredicates(plan.table().getRowType(), context);
        Predicate condition = conditions.predicate(plan.filters());
        return found.stream().filter(row -> condition.test(conditions.testable(row))).toList();
    }

    /** The lookups of the plan's table, by its primary key or the plan's prefix of it. */
    KeyLookup lookups() {
        KeyLookup lookup = session.lookup(plan.table());
        return lookupColumns.isEmpty() ? lookup : lookup.byPrefix(lookupColumns);
    }
}
