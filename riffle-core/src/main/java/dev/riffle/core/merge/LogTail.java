package dev.riffle.core.merge;

import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.scan.LogBatch;
import java.util.Map;
import org.apache.fluss.metadata.TableBucket;

/**
 * The log a {@link KeyedMergeReader} folds over its base: a bounded read of the log's batches, each
 * still knowing its bucket and offsets, between offsets fixed when the read began. The read
 * package's bounded log reader is one; the merge asks for no more than this, so that it does not
 * depend on how the log is read.
 *
 * <pre>{@code
 * try (LogTail tail = BoundedLogReader.create(scanner, stopOffsets)) {
 *     while (tail.hasNext()) {
 *         try (LogBatch batch = tail.next()) { ... }
 *     }
 * }
 * }</pre>
 */
public interface LogTail extends AutoCloseable {
    /** Whether another batch follows; may block while rows are read. */
    boolean hasNext();

    /** The next batch; the caller owns it and closes it. */
    LogBatch next();

    /** Rows and bytes read so far, and how many buckets are done. */
    ReadProgress progress();

    /** Where the read starts in each bucket (inclusive). */
    Map<TableBucket, Long> startOffsets();

    /** Where the read stops in each bucket (exclusive). */
    Map<TableBucket, Long> stopOffsets();

    /** Ends the read and frees the batches not handed out. */
    @Override
    void close();
}
