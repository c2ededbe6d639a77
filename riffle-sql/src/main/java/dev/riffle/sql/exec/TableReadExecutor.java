package dev.riffle.sql.exec;

import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.sql.plan.ReadPlan;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.DataContext;
import org.apache.fluss.metadata.TableInfo;

/**
 * Every read that is not a key lookup ({@code UnionScan}, {@code LakeScan}, {@code LogScan},
 * {@code ChangelogScan}, {@code SnapshotScan}, {@code LimitScan}): one request to Riffle's read
 * façade, which takes the path {@link ReadPlan#path()} names, with the plan's columns, its
 * absorbed conditions as one filter, and its limit.
 */
final class TableReadExecutor implements ScanExecutor.PathExecutor {
    private static final List<String> CHANGELOG_COLUMNS = List.of(ArrowLogScanner.CHANGE_TYPE_COLUMN,
            ArrowLogScanner.LOG_OFFSET_COLUMN, ArrowLogScanner.COMMIT_TIMESTAMP_COLUMN);

    private final FlussSession session;
    private final ReadPlan plan;

    TableReadExecutor(FlussSession session, ReadPlan plan) {
        this.session = session;
        this.plan = plan;
    }

    @Override
    public TableReader reader(DataContext context, long limit, BufferAllocator allocator) {
        return read(plan, session.read(plan.table(), allocator), context, limit).createReader();
    }

    @Override
    public java.util.Optional<ReadBuilder> read(DataContext context, long limit, BufferAllocator allocator) {
        return java.util.Optional.of(read(plan, session.read(plan.table(), allocator), context, limit));
    }

    @Override
    public RowBatches open(DataContext context, long limit) {
        return RowBatches.read(read(plan, session.read(plan.table()), context, limit).createReader(),
                plan.columns().size(), false);
    }

    /**
     * The read façade's request for a plan's scan, as bound for one execution: its batches hold
     * the plan's columns first (a plan without columns reads the first one).
     */
    private static ReadBuilder read(ReadPlan plan, ReadBuilder read, DataContext context, long limit) {
        TableInfo table = plan.table();
        read = switch (plan.source()) {
            case CHANGELOG -> read.changelog();
            case LAKE -> read.lake();
            case LOG -> read.withoutLake();
            case CURRENT -> read;
        };
        read = read.columns(columnNames(plan));
        if (!plan.filters().isEmpty()) {
            read = read.filter(new ConditionPredicates(table.getRowType(), context).predicate(plan.filters()));
        }
        return limit == Long.MAX_VALUE ? read : read.limit(limit);
    }

    private static List<String> columnNames(ReadPlan plan) {
        List<String> names = plan.table().getRowType().getFieldNames();
        List<String> columns = new ArrayList<>();
        for (int position : plan.columns()) {
            columns.add(position < names.size() ? names.get(position) : CHANGELOG_COLUMNS.get(position - names.size()));
        }
        if (columns.isEmpty()) {
            columns.add(names.get(0));
        }
        return columns;
    }
}
