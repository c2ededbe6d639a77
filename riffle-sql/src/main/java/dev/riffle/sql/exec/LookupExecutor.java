package dev.riffle.sql.exec;

import dev.riffle.sql.plan.ReadPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.calcite.DataContext;
import org.apache.fluss.row.InternalRow;

/**
 * {@code PointLookup} and {@code BatchLookup}: one lookup per key in the primary-key table's KV
 * store, all sent before any answer is awaited.
 */
final class LookupExecutor extends KvLookupExecutor {
    private final ReadPlan.Lookup lookup;

    LookupExecutor(FlussSession session, ReadPlan plan, ReadPlan.Lookup lookup) {
        super(session, plan, List.of());
        this.lookup = lookup;
    }

    @Override
    CompletableFuture<List<InternalRow>> find(DataContext context) {
        List<InternalRow> keys = new ArrayList<>(lookup.keys().size());
        for (List<ReadPlan.KeyValue> key : lookup.keys()) {
            Bindings.keyRow(plan.table().getRowType(), lookup.keyColumns(), key, context).ifPresent(keys::add);
        }
        return keys.isEmpty() ? CompletableFuture.completedFuture(List.of()) : lookups().sendAll(keys);
    }

    @Override
    String action() {
        return "look up a key of " + plan.table().getTablePath();
    }
}
