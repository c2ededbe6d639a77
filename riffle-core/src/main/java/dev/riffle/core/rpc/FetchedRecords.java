package dev.riffle.core.rpc;

import dev.riffle.core.log.LogBatchHeader;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.fluss.metadata.TableBucket;

/**
 * The complete record batches one FetchLog response returned for one bucket, undecoded.
 *
 * @param fetchOffset the offset that was asked for; the first batch may start before it (the
 *     server returns whole batches), and rows below it must be dropped
 * @param records the response bytes; {@code batches} hold absolute positions into it
 * @param highWatermark the bucket's high watermark when the server answered
 * @param serverProjected whether the batches hold only the projected columns (the server
 *     projects what it reads from its local log, never remote log segments)
 */
public record FetchedRecords(TableBucket bucket, long fetchOffset, ByteBuffer records, List<LogBatchHeader> batches,
        long highWatermark, boolean serverProjected) {
    public FetchedRecords {
        batches = List.copyOf(batches);
    }
}
