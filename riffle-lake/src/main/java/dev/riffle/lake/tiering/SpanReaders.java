package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.metadata.TableInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The readers of one round of one table, chosen up front from the table's metadata: KV snapshot
 * spans are read by {@link KvSnapshotSpanReader}; log ranges by {@link ArrowLogSpanReader} when
 * Riffle's Arrow reader can read the log and its row view can show the columns, otherwise by
 * {@link ScannedLogSpanReader} (Fluss's own log scanner).
 *
 * <pre>{@code
 * SpanReaders readers = SpanReaders.forTable(tableInfo, flussTable, reads, lease);
 * readers.read(span, lakeBucketWriter);
 * }</pre>
 */
final class SpanReaders {
    private static final Logger LOG = LoggerFactory.getLogger(SpanReaders.class);

    /** How a table's log ranges are read. */
    enum LogReadPath {
        /** Riffle's Arrow reader; rows reach the lake writer as views over the batches. */
        ARROW_BATCHES,
        /** Fluss's log scanner; rows reach the lake writer as Fluss records. */
        SCANNED_ROWS
    }

    private final SpanReader<BucketSpan.LogRange> logReader;
    private final SpanReader<BucketSpan.KvSnapshot> kvSnapshotReader;

    SpanReaders(SpanReader<BucketSpan.LogRange> logReader, SpanReader<BucketSpan.KvSnapshot> kvSnapshotReader) {
        this.logReader = requireNonNull(logReader, "logReader is null");
        this.kvSnapshotReader = requireNonNull(kvSnapshotReader, "kvSnapshotReader is null");
    }

    /** Which reader reads the table's log ranges: a decision from its metadata alone. */
    static LogReadPath logReadPath(TableInfo table) {
        return BucketLogReads.arrowLimitation(table).isEmpty() ? LogReadPath.ARROW_BATCHES : LogReadPath.SCANNED_ROWS;
    }

    /**
     * @param flussTable the Fluss client's handle of the table, shared by the round's readers
     */
    static SpanReaders forTable(TableInfo table, Table flussTable, BucketLogReads reads, LeaseGuard lease) {
        requireNonNull(table, "table is null");
        Optional<String> limitation = BucketLogReads.arrowLimitation(table);
        SpanReader<BucketSpan.LogRange> logReader;
        if (limitation.isEmpty()) {
            logReader = new ArrowLogSpanReader(table, reads, lease);
        } else {
            LOG.debug("Tiering {} with the Fluss log scanner: {}", table.getTablePath(), limitation.get());
            logReader = new ScannedLogSpanReader(table, flussTable, reads, lease);
        }
        return new SpanReaders(logReader, new KvSnapshotSpanReader(flussTable, lease));
    }

    /** Reads the span with the reader for its kind into {@code sink}. */
    void read(BucketSpan span, SpanReader.RecordSink sink) throws Exception {
        requireNonNull(span, "span is null");
        requireNonNull(sink, "sink is null");
        if (span instanceof BucketSpan.LogRange log) {
            logReader.read(log, sink);
        } else if (span instanceof BucketSpan.KvSnapshot snapshot) {
            kvSnapshotReader.read(snapshot, sink);
        } else {
            throw new IllegalArgumentException("No reader for span " + span);
        }
    }
}
