package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a log range as rows with Fluss's own {@link LogScanner}: for what Riffle's Arrow reader
 * cannot read or its row view cannot show (log formats other than ARROW, nested columns, a schema
 * changed since creation). Each record is a Fluss {@code ScanRecord} that goes to the lake writer
 * as it is.
 *
 * <pre>{@code
 * new ScannedLogSpanReader(tableInfo, flussTable, reads, lease).read(span, lakeBucketWriter);
 * }</pre>
 *
 * <p>The end of a span: the scanner never shows batches without records (a primary-key write that
 * changed nothing still takes an offset), so a bucket whose last offsets are such batches would
 * never reach its stop offset. When a bucket goes quiet, {@link BucketLogReads#holdsRecords} looks
 * at the batch headers of the offsets left: if they hold no records, the span is done. A bucket that
 * is only slow (a busy machine) holds records; it is looked at again later, and fails the round
 * only once it has delivered nothing for {@link #STALLED_BUCKET}.
 */
final class ScannedLogSpanReader implements SpanReader<BucketSpan.LogRange> {
    private static final Logger LOG = LoggerFactory.getLogger(ScannedLogSpanReader.class);
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Duration QUIET_BUCKET = Duration.ofSeconds(2);
    static final Duration STALLED_BUCKET = Duration.ofSeconds(60);

    private final TableInfo info;
    private final Table table;
    private final BucketLogReads reads;
    private final LeaseGuard lease;

    ScannedLogSpanReader(TableInfo info, Table table, BucketLogReads reads, LeaseGuard lease) {
        this.info = requireNonNull(info, "info is null");
        this.table = requireNonNull(table, "table is null");
        this.reads = requireNonNull(reads, "reads is null");
        this.lease = requireNonNull(lease, "lease is null");
    }

    @Override
    public void read(BucketSpan.LogRange span, RecordSink sink) throws Exception {
        TableBucket bucket = span.bucket();
        long stop = span.stop();
        try (LogScanner scanner = table.newScan().createLogScanner()) {
            long start = span.from().orElse(LogScanner.EARLIEST_OFFSET);
            if (bucket.getPartitionId() == null) {
                scanner.subscribe(bucket.getBucket(), start);
            } else {
                scanner.subscribe(bucket.getPartitionId(), bucket.getBucket(), start);
            }
            Optional<Long> lastSeen = Optional.empty();
            long lastProgress = System.nanoTime();
            long lastLooked = lastProgress;
            while (true) {
                lease.ensureHeld();
                List<ScanRecord> records = scanner.poll(POLL).records(bucket);
                for (ScanRecord record : records) {
                    long offset = record.logOffset();
                    if (offset >= stop) {
                        return;
                    }
                    sink.write(record);
                    lastSeen = Optional.of(offset);
                    if (offset == stop - 1) {
                        return;
                    }
                }
                long now = System.nanoTime();
                if (!records.isEmpty()) {
                    lastProgress = now;
                }
                if (now - Math.max(lastProgress, lastLooked) > QUIET_BUCKET.toNanos()) {
                    Optional<Long> from = lastSeen.map(offset -> offset + 1).or(span::from);
                    if (!reads.holdsRecords(info, bucket, span.partitionName(), from, stop)) {
                        LOG.debug("Bucket {} of {}: offsets [{}, {}) hold no records", bucket.getBucket(),
                                info.getTablePath(), from.map(String::valueOf).orElse("earliest"), stop);
                        return;
                    }
                    if (now - lastProgress > STALLED_BUCKET.toNanos()) {
                        throw new IllegalStateException("Bucket " + bucket.getBucket() + " of " + info.getTablePath()
                                + " holds records in [" + from.map(String::valueOf).orElse("earliest") + ", " + stop
                                + ") that the log scanner did not deliver in " + STALLED_BUCKET.toSeconds()
                                + " s; the round will be retried");
                    }
                    lastLooked = System.nanoTime();
                }
            }
        }
    }
}
