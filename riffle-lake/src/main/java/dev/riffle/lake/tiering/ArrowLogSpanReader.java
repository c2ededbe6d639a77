package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import org.apache.fluss.metadata.TableInfo;

/**
 * Reads a log range as Arrow batches with Riffle's bounded reader and hands each row to the lake
 * writer as a view over the batch, not as one copied record per row. The reader steps over batches
 * without records, so the span ends exactly at its stop offset. For tables whose log Riffle's reader
 * can read and whose columns the row view shows ({@link BucketLogReads#arrowLimitation} is empty).
 *
 * <pre>{@code
 * new ArrowLogSpanReader(table, reads, lease).read(span, lakeBucketWriter);
 * }</pre>
 */
final class ArrowLogSpanReader implements SpanReader<BucketSpan.LogRange> {
    private final TableInfo table;
    private final BucketLogReads reads;
    private final LeaseGuard lease;

    ArrowLogSpanReader(TableInfo table, BucketLogReads reads, LeaseGuard lease) {
        this.table = requireNonNull(table, "table is null");
        this.reads = requireNonNull(reads, "reads is null");
        this.lease = requireNonNull(lease, "lease is null");
        BucketLogReads.arrowLimitation(table).ifPresent(why -> {
            throw new IllegalArgumentException("Riffle's Arrow reader cannot tier " + table.getTablePath() + ": " + why);
        });
    }

    @Override
    public void read(BucketSpan.LogRange span, RecordSink sink) throws Exception {
        reads.readBatches(table, span, batch -> {
            lease.ensureHeld();
            int rows = batch.rowCount();
            for (int i = 0; i < rows; i++) {
                sink.write(batch.at(i));
            }
        });
    }
}
