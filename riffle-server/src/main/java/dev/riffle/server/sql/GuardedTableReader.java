package dev.riffle.server.sql;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.reader.TableReader;
import dev.riffle.sql.exec.ExecutionGuard;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;

/**
 * A statement's table read (the rows of a bare read, which no Calcite operator touches) checked by
 * the statement's {@link ExecutionGuard} before each batch, and counted as its progress: a read
 * that runs past its deadline or is cancelled stops at its next batch.
 *
 * <pre>{@code
 * TableReader rows = new GuardedTableReader(direct.open(parameters, allocator), guard);
 * }</pre>
 */
final class GuardedTableReader implements TableReader {
    private final TableReader read;
    private final ExecutionGuard guard;

    GuardedTableReader(TableReader read, ExecutionGuard guard) {
        this.read = requireNonNull(read, "read is null");
        this.guard = requireNonNull(guard, "guard is null");
    }

    @Override
    public Schema schema() {
        return read.schema();
    }

    @Override
    public boolean hasNext() {
        guard.check();
        return read.hasNext();
    }

    @Override
    public ReadBatch next() {
        guard.check();
        ReadBatch batch = read.next();
        guard.rows(batch.rowCount());
        return batch;
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
