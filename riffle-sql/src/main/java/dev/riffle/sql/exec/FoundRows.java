package dev.riffle.sql.exec;

import dev.riffle.core.reader.RowsReader;
import dev.riffle.core.reader.TableReader;
import dev.riffle.sql.plan.ReadPlan;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.row.InternalRow;

/** Rows found by key lookups as Arrow batches in the plan's columns. */
final class FoundRows {
    private FoundRows() {}

    static TableReader reader(List<InternalRow> found, ReadPlan plan, BufferAllocator allocator) {
        return RowsReader.of(found, plan.table().getRowType(),
                plan.columns().stream().mapToInt(Integer::intValue).toArray(), allocator);
    }
}
