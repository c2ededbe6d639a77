package dev.riffle.core.kv;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.rpc.RetryingTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.batch.BatchScanner;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.utils.CloseableIterator;

/**
 * The rows of KV snapshots, one bucket after another, in the projected columns, read with Fluss's
 * snapshot batch scanner (it downloads the snapshot's files from remote storage and iterates
 * them; rows written under an older schema come in the current one). One bucket's files are on
 * local disk at a time.
 *
 * <pre>{@code
 * try (KvSnapshotRows rows = KvSnapshotRows.of(connection, table, snapshots, new int[] {0, 2})) { ... }
 * }</pre>
 */
public final class KvSnapshotRows implements CloseableIterator<InternalRow> {
    private static final Duration POLL = Duration.ofSeconds(30);

    private final Table table;
    private final TableInfo info;
    private final int[] projection;
    private final Iterator<KvSnapshot> snapshots;
    private BatchScanner scanner;
    private KvSnapshot current;
    private CloseableIterator<InternalRow> batch;

    private KvSnapshotRows(Table table, TableInfo info, List<KvSnapshot> snapshots, int[] projection) {
        this.table = table;
        this.info = info;
        this.snapshots = List.copyOf(snapshots).iterator();
        this.projection = projection.clone();
    }

    /** @param projection the table's fields to read, in output order */
    public static KvSnapshotRows of(FlussConnection connection, TableInfo info, List<KvSnapshot> snapshots,
            int[] projection) {
        requireNonNull(connection, "connection is null");
        requireNonNull(info, "info is null");
        requireNonNull(snapshots, "snapshots is null");
        return new KvSnapshotRows(RetryingTables.open(connection, info.getTablePath()), info, snapshots,
                requireNonNull(projection, "projection is null"));
    }

    @Override
    public boolean hasNext() {
        try {
            while (true) {
                if (batch != null && batch.hasNext()) {
                    return true;
                }
                if (batch != null) {
                    batch.close();
                    batch = null;
                }
                if (scanner != null) {
                    CloseableIterator<InternalRow> polled = scanner.pollBatch(POLL);
                    if (polled != null) { // an empty batch while the files download; null at the end
                        batch = polled;
                        continue;
                    }
                    scanner.close();
                    scanner = null;
                }
                if (!snapshots.hasNext()) {
                    return false;
                }
                current = snapshots.next();
                scanner = table.newScan().project(projection).createBatchScanner(current.bucket(),
                        current.snapshotId());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Reading KV snapshot " + current.snapshotId() + " of " + current.bucket()
                    + " of " + info.getTablePath() + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public InternalRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The KV snapshots have been read");
        }
        return batch.next();
    }

    @Override
    public void close() {
        try {
            if (batch != null) {
                batch.close();
            }
            if (scanner != null) {
                scanner.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                table.close();
            } catch (Exception ignored) {
                // the handle holds nothing the connection does not free
            }
        }
    }
}
