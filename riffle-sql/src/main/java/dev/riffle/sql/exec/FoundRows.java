package dev.riffle.sql.exec;

import dev.riffle.core.reader.RowsReader;
import dev.riffle.core.reader.TableReader;
import dev.riffle.sql.plan.ReadPlan;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.CloseableIterator;

/** Rows found by key lookups as Arrow batches in the plan's columns. */
final class FoundRows {
    private FoundRows() {}

    static TableReader reader(List<InternalRow> found, ReadPlan plan, BufferAllocator allocator) {
        return reader(found, plan.table().getRowType(), plan.columns().stream().mapToInt(Integer::intValue).toArray(),
                allocator);
    }

    /** Rows of {@code rowType} as Arrow batches of their {@code columns}. */
    static TableReader reader(List<InternalRow> found, RowType rowType, int[] columns, BufferAllocator allocator) {
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
        return new RowsReader(iterator, rowType, columns, allocator, found.size());
    }
}
