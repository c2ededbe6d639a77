package dev.riffle.sql.exec;

import dev.riffle.sql.plan.ReadPlan;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.calcite.DataContext;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;

/** {@code PrefixLookup}: every row whose primary key starts with the bucket-key values, from the KV store. */
final class PrefixLookupExecutor extends KvLookupExecutor {
    private final ReadPlan.PrefixLookup prefix;

    PrefixLookupExecutor(FlussSession session, ReadPlan plan, ReadPlan.PrefixLookup prefix) {
        super(session, plan, prefix.prefixColumns());
        this.prefix = prefix;
    }

    @Override
    CompletableFuture<List<InternalRow>> find(DataContext context) {
        Optional<GenericRow> key = Bindings.keyRow(plan.table().getRowType(), prefix.prefixColumns(), prefix.prefix(),
                context);
        if (key.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        return lookups().sendAll(List.of(key.get()));
    }

    @Override
    String action() {
        return "prefix-look up " + plan.table().getTablePath();
    }
}
