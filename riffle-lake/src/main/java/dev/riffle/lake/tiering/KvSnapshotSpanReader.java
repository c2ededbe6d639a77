package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.batch.BatchScanner;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.utils.CloseableIterator;

/**
 * Reads the rows of a primary-key bucket's KV snapshot with Fluss's batch scanner, for a bucket
 * the lake never held (its changelog before the snapshot may be gone). The rows reach the lake as
 * inserts without a log offset or timestamp (-1).
 *
 * <pre>{@code
 * new KvSnapshotSpanReader(flussTable, lease).read(snapshotSpan, lakeBucketWriter);
 * }</pre>
 */
final class KvSnapshotSpanReader implements SpanReader<BucketSpan.KvSnapshot> {
    private static final Duration POLL = Duration.ofSeconds(1);

    private final Table table;
    private final LeaseGuard lease;

    KvSnapshotSpanReader(Table table, LeaseGuard lease) {
        this.table = requireNonNull(table, "table is null");
        this.lease = requireNonNull(lease, "lease is null");
    }

    @Override
    public void read(BucketSpan.KvSnapshot span, RecordSink sink) throws Exception {
        try (BatchScanner scanner = table.newScan().createBatchScanner(span.bucket(), span.snapshotId())) {
            while (true) {
                lease.ensureHeld();
                CloseableIterator<InternalRow> batch = scanner.pollBatch(POLL);
                if (batch == null) { // Fluss's end of the snapshot
                    return;
                }
                try (batch) {
                    while (batch.hasNext()) {
                        sink.write(new ScanRecord(batch.next()));
                    }
                }
            }
        }
    }
}
