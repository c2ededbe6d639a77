package dev.riffle.lake.union;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.reader.TableReader;
import dev.riffle.lake.source.LakeScan;
import dev.riffle.lake.source.LakeSplit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;

/**
 * Every split of one planned lake scan, one after another, as a {@link TableReader}. Its log stop
 * offsets are where the lake snapshot ends in each bucket: a log read from there continues it.
 */
final class LakeSplitsReader implements TableReader {
    private final LakeScan scan;
    private final Schema schema;
    private final Map<TableBucket, Long> snapshotOffsets;
    private final BufferAllocator allocator;
    private final Iterator<LakeSplit> splits;
    private TableReader current;
    private long rows;
    private long bytes;
    private final long files;
    private boolean closed;

    LakeSplitsReader(LakeScan scan, Schema schema, Map<TableBucket, Long> snapshotOffsets, BufferAllocator allocator) {
        this.scan = requireNonNull(scan, "scan is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.snapshotOffsets = Map.copyOf(snapshotOffsets);
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.splits = scan.splits().iterator();
        // Known from the plan, so that an answer's headers can say it before the first row.
        this.files = scan.splits().stream().mapToLong(LakeSplit::files).sum();
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public boolean hasNext() {
        try {
            while (!closed) {
                if (current != null && current.hasNext()) {
                    return true;
                }
                if (current != null) {
                    current.close();
                    current = null;
                }
                if (!splits.hasNext()) {
                    return false;
                }
                current = scan.read(splits.next(), allocator);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Reading the lake snapshot " + scan.snapshotId() + " failed: "
                    + e.getMessage(), e);
        }
        return false;
    }

    @Override
    public ReadBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The lake read has ended");
        }
        ReadBatch batch = current.next();
        rows += batch.rowCount();
        bytes += batch.bufferBytes();
        return batch;
    }

    @Override
    public ReadProgress progress() {
        return new ReadProgress(rows, bytes, 0, 0, files);
    }

    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return snapshotOffsets;
    }

    @Override
    public Optional<Long> lakeSnapshotId() {
        return Optional.of(scan.snapshotId());
    }

    @Override
    public BufferAllocator allocator() {
        return allocator;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (current != null) {
                current.close();
            }
        } finally {
            scan.close();
        }
    }
}
