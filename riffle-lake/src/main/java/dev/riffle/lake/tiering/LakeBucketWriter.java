package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Optional;
import org.apache.fluss.lake.writer.LakeTieringFactory;
import org.apache.fluss.lake.writer.LakeWriter;
import org.apache.fluss.lake.writer.WriterInitContext;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.LogRecord;

/**
 * The lake side of one bucket span: opens the lake format's writer at the span's first record (a
 * span that yields none writes no file), counts what it writes, and completes the writer into a
 * {@link BucketWrite}. Closing it without {@link #finish()} drops what was written.
 *
 * <pre>{@code
 * try (LakeBucketWriter<W> writer = new LakeBucketWriter<>(factory, table, span)) {
 *     reader.read(span, writer);
 *     return writer.finish();
 * }
 * }</pre>
 */
final class LakeBucketWriter<W> implements SpanReader.RecordSink, AutoCloseable {
    private final LakeTieringFactory<W, ?> factory;
    private final TableInfo table;
    private final BucketSpan span;
    private Optional<LakeWriter<W>> writer = Optional.empty();
    private long rows;
    private long newest = Long.MIN_VALUE;
    private long oldest = Long.MAX_VALUE;

    LakeBucketWriter(LakeTieringFactory<W, ?> factory, TableInfo table, BucketSpan span) {
        this.factory = requireNonNull(factory, "factory is null");
        this.table = requireNonNull(table, "table is null");
        this.span = requireNonNull(span, "span is null");
    }

    @Override
    public void write(LogRecord record) throws IOException {
        if (writer.isEmpty()) {
            writer = Optional.of(factory.createLakeWriter(new WriterContext(table, span)));
        }
        writer.get().write(record);
        rows++;
        long timestamp = record.timestamp();
        if (timestamp >= 0) { // rows of a KV snapshot carry none (-1)
            newest = Math.max(newest, timestamp);
            oldest = Math.min(oldest, timestamp);
        }
    }

    /** Completes the writer; empty when the span held no record. */
    Optional<BucketWrite<W>> finish() throws IOException {
        if (writer.isEmpty()) {
            return Optional.empty();
        }
        W result = writer.get().complete();
        boolean timed = newest != Long.MIN_VALUE;
        return Optional.of(new BucketWrite<>(span.bucket(), span.endOffset(), result, rows,
                timed ? Optional.of(newest) : Optional.empty(), timed ? Optional.of(oldest) : Optional.empty()));
    }

    @Override
    public void close() throws IOException {
        if (writer.isPresent()) {
            writer.get().close();
        }
    }

    /** What the lake format's writer is told about the bucket it writes. */
    private record WriterContext(TableInfo table, BucketSpan span) implements WriterInitContext {
        @Override
        public TablePath tablePath() {
            return table.getTablePath();
        }

        @Override
        public TableBucket tableBucket() {
            return span.bucket();
        }

        @Override
        public String partition() {
            return span.partitionName().orElse(null); // Fluss's interface takes null for "not partitioned"
        }

        @Override
        public TableInfo tableInfo() {
            return table;
        }

        /**
         * Fluss 1.0's {@code WriterInitContext} asks for the bucket count (abstract there, absent in
         * 0.9.1, hence no {@code @Override}): with it Riffle's tiering compiles against either client.
         */
        public int bucketCount() {
            return table.getNumBuckets();
        }
    }
}
