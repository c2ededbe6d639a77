package dev.riffle.sql.exec;

import dev.riffle.core.reader.TableReader;
import dev.riffle.sql.planner.ReadPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.DataContext;
import org.apache.fluss.client.lookup.LookupResult;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;

/**
 * {@code PointLookup} and {@code BatchLookup}: one lookup per key in the primary-key table's KV
 * store, all sent before any answer is awaited.
 */
final class LookupExecutor implements ScanExecutor.PathExecutor {
    private final FlussSession session;
    private final ReadPlan plan;
    private final ReadPlan.Lookup lookup;
    /** The session's lookuper for this plan, found once: a prepared point query runs it many times. */
    private volatile Lookuper lookuper;

    LookupExecutor(FlussSession session, ReadPlan plan, ReadPlan.Lookup lookup) {
        this.session = session;
        this.plan = plan;
        this.lookup = lookup;
    }

    @Override
    public RowBatches open(DataContext context, long limit) {
        return RowBatches.of(CalciteRows.of(found(context), plan.table().getRowType(), plan.columns()));
    }

    @Override
    public TableReader reader(DataContext context, long limit, BufferAllocator allocator) {
        return FoundRows.reader(found(context), plan, allocator);
    }

    /** The rows the keys find, whole (every column of the table). */
    private List<InternalRow> found(DataContext context) {
        Lookuper keys = lookuper();
        List<CompletableFuture<LookupResult>> pending = new ArrayList<>();
        for (List<ReadPlan.KeyValue> key : lookup.keys()) {
            Bindings.keyRow(plan.table().getRowType(), lookup.keyColumns(), key, context)
                    .ifPresent(row -> pending.add(keys.lookup(row)));
        }
        List<InternalRow> found = new ArrayList<>();
        for (CompletableFuture<LookupResult> result : pending) {
            found.addAll(FlussSession.await(result, "look up a key of " + plan.table().getTablePath()).getRowList());
        }
        return found;
    }

    private Lookuper lookuper() {
        Lookuper known = lookuper;
        if (known == null) {
            known = session.lookuper(plan.table(), List.of());
            lookuper = known;
        }
        return known;
    }
}
