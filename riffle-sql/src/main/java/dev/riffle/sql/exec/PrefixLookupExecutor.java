package dev.riffle.sql.exec;

import dev.riffle.sql.planner.ReadPlan;
import java.util.List;
import java.util.Optional;
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
    List<InternalRow> found(DataContext context) {
        Optional<GenericRow> key = Bindings.keyRow(plan.table().getRowType(), prefix.prefixColumns(), prefix.prefix(),
                context);
        if (key.isEmpty()) {
            return List.of();
        }
        return FlussSession.await(withLookuper(prefix -> prefix.lookup(key.get())),
                "prefix-look up " + plan.table().getTablePath())
                .getRowList();
    }
}
