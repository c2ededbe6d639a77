package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.sql.plan.ReadPlan;
import dev.riffle.sql.statement.ExecutionGuard;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Runs one {@link ReadPlan}: the generated code of a query calls {@link #enumerable} on the
 * instance the plan stashed. The executor of the plan's access is chosen once, here
 * ({@link LookupExecutor}, {@link PrefixLookupExecutor}, or {@link TableReadExecutor} for every
 * read through the read façade); the same executor serves every execution of a prepared
 * statement, reading {@code ?} parameters from the {@link DataContext} each time. Rows are
 * Calcite's values, an {@code Object[]} per row (the value itself for one column).
 */
public final class ScanExecutor {
    private final ReadPlan plan;
    private final PathExecutor path;

    /** How one access path produces the rows of one execution: as Calcite rows, or as Arrow batches. */
    interface PathExecutor {
        RowBatches open(DataContext context, long limit);

        /** The same rows as Arrow batches in the plan's columns, at full precision, allocated from {@code allocator}. */
        TableReader reader(DataContext context, long limit, BufferAllocator allocator);

        /**
         * The rows {@link #reader} answers, whole (every column of the table), when they are found by
         * key lookups: once the keys are looked up, with no thread waiting meanwhile; empty for a
         * table read.
         */
        default java.util.Optional<java.util.concurrent.CompletableFuture<java.util.List<org.apache.fluss.row.InternalRow>>>
                rowsOnceFound(DataContext context) {
            return java.util.Optional.empty();
        }

        /** The read façade's request for these rows, when they are a table read (not a key lookup). */
        default java.util.Optional<dev.riffle.core.read.ReadBuilder> read(DataContext context, long limit,
                BufferAllocator allocator) {
            return java.util.Optional.empty();
        }
    }

    public ScanExecutor(FlussSession session, ReadPlan plan) {
        requireNonNull(session, "session is null");
        this.plan = requireNonNull(plan, "plan is null");
        if (plan.access() instanceof ReadPlan.Lookup lookup) {
            this.path = new LookupExecutor(session, plan, lookup);
        } else if (plan.access() instanceof ReadPlan.PrefixLookup prefix) {
            this.path = new PrefixLookupExecutor(session, plan, prefix);
        } else {
            this.path = new TableReadExecutor(session, plan);
        }
    }

    public ReadPlan plan() {
        return plan;
    }

    /** One execution's rows as Arrow batches in the plan's columns (a plan without columns: its first one). */
    TableReader reader(DataContext context, long limit, BufferAllocator allocator) {
        return path.reader(context, limit, allocator);
    }

    /** One execution's whole rows once its keys are found, when the plan is a key lookup ({@link PathExecutor#rowsOnceFound}). */
    java.util.Optional<java.util.concurrent.CompletableFuture<java.util.List<org.apache.fluss.row.InternalRow>>>
            rowsOnceFound(DataContext context) {
        return path.rowsOnceFound(context);
    }

    /** Takes each batch of {@link #forEachBatch}; the batch is freed when this returns. */
    @FunctionalInterface
    interface BatchSink {
        /** @param rows how many leading rows of {@code batch} belong to the result (the limit may end inside it) */
        void accept(VectorSchemaRoot batch, int rows);
    }

    /**
     * Reads one execution's rows as Arrow batches ({@link #reader}) and hands each to {@code sink},
     * up to the plan's limit as bound for this execution; before each batch it asks the
     * execution's {@link ExecutionGuard} whether the statement may go on. For operators that
     * consume a read's batches whole (vectorized aggregation and top-N).
     */
    void forEachBatch(DataContext context, BufferAllocator allocator, BatchSink sink) {
        requireNonNull(sink, "sink is null");
        forEachOwnedBatch(context, allocator, new OwnedBatchSink() {
            @Override
            public void accept(ReadBatch batch, int rows) {
                try (batch) {
                    sink.accept(batch.root(), rows);
                }
            }

            @Override
            public void release() {}
        });
    }

    /**
     * Takes each batch of {@link #forEachOwnedBatch}, and with it the batch's ownership: it may keep
     * a batch past {@link #accept} (to fold it on another thread), but not past {@link #release}.
     */
    interface OwnedBatchSink {
        /** @param rows how many leading rows of {@code batch} belong to the result (the limit may end inside it) */
        void accept(ReadBatch batch, int rows);

        /**
         * Called once, after the last batch or when the read fails, before the read is closed:
         * by its return every batch handed over is closed.
         */
        void release();
    }

    /** {@link #forEachBatch}, handing over each batch: {@code sink} closes it, by {@link OwnedBatchSink#release} at the latest. */
    void forEachOwnedBatch(DataContext context, BufferAllocator allocator, OwnedBatchSink sink) {
        long limit = Bindings.limit(plan, context);
        if (limit == 0) {
            return;
        }
        ExecutionGuard guard = ExecutionGuard.of(context);
        try (TableReader reader = reader(context, limit, allocator)) {
            try {
                long remaining = limit;
                while (remaining > 0 && reader.hasNext()) {
                    guard.check();
                    ReadBatch batch = reader.next();
                    int rows = (int) Math.min(batch.root().getRowCount(), remaining);
                    sink.accept(batch, rows);
                    guard.rows(rows);
                    remaining -= rows;
                }
            } finally {
                sink.release();
            }
        }
    }

    /** One execution's read request, when the plan is a table read (see {@link PathExecutor#read}). */
    java.util.Optional<dev.riffle.core.read.ReadBuilder> read(DataContext context, long limit,
            BufferAllocator allocator) {
        return path.read(context, limit, allocator);
    }

    /** The rows, read lazily when enumerated. */
    public Enumerable<Object> enumerable(DataContext context) {
        boolean scalar = plan.columns().size() == 1;
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object> enumerator() {
                long limit = Bindings.limit(plan, context);
                return new RowEnumerator(limit == 0 ? RowBatches.of(java.util.List.of()) : path.open(context, limit),
                        scalar, limit);
            }
        };
    }
}
