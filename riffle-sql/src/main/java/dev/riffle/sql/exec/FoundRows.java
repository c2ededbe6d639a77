package dev.riffle.sql.exec;

import dev.riffle.core.reader.RowsReader;
import dev.riffle.core.reader.TableReader;
import dev.riffle.sql.planner.ReadPlan;
import java.util.Iterator;
import org.apache.arrow.memory.BufferAllocator;
import java.util.List;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.utils.CloseableIterator;

/** Rows found by key lookups as Arrow batches in the plan's columns. */
final class FoundRows {
    private FoundRows() {}

    static TableReader reader(List<InternalRow> found, ReadPlan plan, BufferAllocator allocator) {
        Iterator<InternalRow> rows = found.iterator();
        CloseableIterator<InternalRow> iterator = new CloseableIterator<>() {
            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public InternalRow next() {
                return rows.next();
            }

            @Override
            public void close() {}
        };
        int[] columns = plan.columns().stream().mapToInt(Integer::intValue).toArray();
        return new RowsReader(iterator, plan.table().getRowType(), columns, allocator, found.size());
    }
}
