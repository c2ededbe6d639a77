package dev.riffle.server.sql;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.reader.TableReader;
import dev.riffle.server.statement.RunningStatement;
import dev.riffle.sql.statement.ExecutionGuard;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;

/**
 * A statement's rows (a bare table read, or what Calcite's operators compute), checked by the
 * statement's {@link ExecutionGuard} before each batch and counted as its progress (a read that runs
 * past its deadline or is cancelled stops at its next batch), and computed only while the statement
 * holds a place under the server's admission: between batches, while its client takes its rows,
 * the place is given back.
 *
 * <pre>{@code
 * TableReader rows = new GuardedTableReader(direct.open(parameters, allocator), guard);
 * }</pre>
 */
final class GuardedTableReader implements TableReader {
    private final TableReader read;
    private final ExecutionGuard guard;
    private final RunningStatement statement;

    GuardedTableReader(TableReader read, RunningStatement statement) {
        this.read = requireNonNull(read, "read is null");
        this.statement = requireNonNull(statement, "statement is null");
        this.guard = statement.guard();
        statement.yieldPlace(); // until its first rows are asked for
    }

    @Override
    public Schema schema() {
        return read.schema();
    }

    @Override
    public boolean hasNext() {
        guard.check();
        occupy();
        try {
            return read.hasNext();
        } finally {
            statement.yieldPlace();
        }
    }

    @Override
    public ReadBatch next() {
        guard.check();
        occupy();
        try {
            ReadBatch batch = read.next();
            guard.rows(batch.rowCount());
            return batch;
        } finally {
            statement.yieldPlace();
        }
    }

    private void occupy() {
        if (statement.admissible()) {
            statement.admit();
        }
    }

    @Override
    public ReadProgress progress() {
        return read.progress();
    }

    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return read.logStopOffsets();
    }

    @Override
    public Map<TableBucket, Long> logStartOffsets() {
        return read.logStartOffsets();
    }

    @Override
    public Optional<Long> lakeSnapshotId() {
        return read.lakeSnapshotId();
    }

    @Override
    public boolean truncated() {
        return read.truncated();
    }

    @Override
    public BufferAllocator allocator() {
        return read.allocator();
    }

    @Override
    public void close() {
        read.close();
    }
}
