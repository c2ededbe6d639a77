package dev.riffle.sql.exec;

import dev.riffle.core.reader.TableReader;
import dev.riffle.sql.planner.ReadPlan;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.DataContext;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;

/** {@code PrefixLookup}: every row whose primary key starts with the bucket-key values, from the KV store. */
final class PrefixLookupExecutor implements ScanExecutor.PathExecutor {
    private final FlussSession session;
    private final ReadPlan plan;
    private final ReadPlan.PrefixLookup prefix;
    private volatile Lookuper lookuper;

    PrefixLookupExecutor(FlussSession session, ReadPlan plan, ReadPlan.PrefixLookup prefix) {
        this.session = session;
        this.plan = plan;
        this.prefix = prefix;
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
        Optional<GenericRow> key = Bindings.keyRow(plan.table().getRowType(), prefix.prefixColumns(), prefix.prefix(),
                context);
        if (key.isEmpty()) {
            return List.of();
        }
        return FlussSession.await(lookuper().lookup(key.get()), "prefix-look up " + plan.table().getTablePath())
                .getRowList();
    }

    private Lookuper lookuper() {
        Lookuper known = lookuper;
        if (known == null) {
            known = session.lookuper(plan.table(), prefix.prefixColumns());
            lookuper = known;
        }
        return known;
    }
}
