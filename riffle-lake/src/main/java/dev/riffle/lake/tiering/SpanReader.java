package dev.riffle.lake.tiering;

import java.io.IOException;
import org.apache.fluss.record.LogRecord;

/**
 * One way of reading a bucket span: every record of the span, in offset order, into a sink (the
 * span's lake writer). {@link SpanReaders} decides which implementation reads which span, from the
 * table's metadata, before anything is read.
 *
 * <pre>{@code
 * SpanReader<BucketSpan.LogRange> reader = new ArrowLogSpanReader(table, reads, lease);
 * reader.read(span, record -> writer.write(record));
 * }</pre>
 *
 * @param <S> the kind of span it reads
 */
interface SpanReader<S extends BucketSpan> {

    /**
     * Reads the span to its end. Returns normally only when every record of the span is in the sink.
     *
     * @throws LeaseLostException when the coordinator took the table back meanwhile
     */
    void read(S span, RecordSink sink) throws Exception;

    /** Where a reader puts the records it reads. A record may be a cursor: use it before the next. */
    @FunctionalInterface
    interface RecordSink {
        void write(LogRecord record) throws IOException;
    }
}
