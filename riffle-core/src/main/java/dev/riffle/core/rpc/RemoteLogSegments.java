package dev.riffle.core.rpc;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.LogExpiredException;
import dev.riffle.core.exception.RemoteStorageUnavailableException;
import dev.riffle.core.log.LogBatchHeader;
import dev.riffle.core.log.LogBytesSource;
import dev.riffle.core.log.LogRecordsParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.fluss.fs.FSDataInputStream;
import org.apache.fluss.fs.FsPath;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.rpc.messages.PbRemoteLogFetchInfo;
import org.apache.fluss.rpc.messages.PbRemoteLogSegment;
import org.apache.fluss.utils.FlussPaths;

/**
 * Log segments a tablet server has moved to remote storage, as a FetchLog response describes
 * them when the fetch offset is below the local log: where they are, and where in the first one to
 * start. Reading them returns the same record batches a FetchLog response would have held.
 *
 * <p>Segments are files in Fluss's remote data directory, read through Fluss's file systems
 * (the local file system always works; others need their Fluss file system plugin and
 * credentials on the classpath). Server-side projection never applies to them: the batches carry
 * every column, and {@link #read} returns them that way.
 */
record RemoteLogSegments(TableBucket bucket, long fetchOffset, String tabletDir, List<Segment> segments,
        int firstStartPosition) {

    record Segment(UUID id, long startOffset, long endOffset, int sizeInBytes) {}

    RemoteLogSegments {
        requireNonNull(bucket, "bucket is null");
        requireNonNull(tabletDir, "tabletDir is null");
        segments = List.copyOf(segments);
    }

    static RemoteLogSegments of(TableBucket bucket, long fetchOffset, PbRemoteLogFetchInfo info) {
        List<Segment> segments = new ArrayList<>();
        for (PbRemoteLogSegment segment : info.getRemoteLogSegmentsList()) {
            segments.add(new Segment(UUID.fromString(segment.getRemoteLogSegmentId()), segment.getRemoteLogStartOffset(),
                    segment.getRemoteLogEndOffset(), segment.getSegmentSizeInBytes()));
        }
        return new RemoteLogSegments(bucket, fetchOffset, info.getRemoteLogTabletDir(), segments,
                info.hasFirstStartPos() ? info.getFirstStartPos() : 0);
    }

    /**
     * Complete batches from the fetch offset on, about {@code maxBytes} of them (at least one
     * batch), as if a FetchLog response had returned them.
     */
    FetchedRecords read(int maxBytes, long highWatermark) {
        ByteArrayOutputStream collected = new ByteArrayOutputStream();
        for (int i = 0; i < segments.size() && collected.size() < maxBytes; i++) {
            Segment segment = segments.get(i);
            FsPath file = FlussPaths.remoteLogSegmentFile(
                    FlussPaths.remoteLogSegmentDir(new FsPath(tabletDir), segment.id()), segment.startOffset());
            long position = i == 0 ? firstStartPosition : 0;
            try (FSDataInputStream in = file.getFileSystem().open(file)) {
                in.seek(position);
                while (position < segment.sizeInBytes() && collected.size() < maxBytes) {
                    byte[] prefix = in.readNBytes(12);
                    if (prefix.length < 12) {
                        break;
                    }
                    int length = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN).getInt(8);
                    byte[] rest = in.readNBytes(length);
                    if (rest.length < length) {
                        break;
                    }
                    collected.write(prefix);
                    collected.write(rest);
                    position += 12L + length;
                }
            } catch (java.io.FileNotFoundException | java.nio.file.NoSuchFileException e) {
                // The server named the segment, then deleted it (table.log.ttl) before it was read.
                throw new LogExpiredException("Remote log segment " + file + " of bucket " + bucket.getBucket()
                        + " expired (table.log.ttl) while it was read at offset " + fetchOffset
                        + "; the rows before the bucket's new earliest offset are gone from the log", e);
            } catch (IOException | RuntimeException e) {
                // Runtime too: the file system plugins' SDKs (S3A, the AWS SDK) throw unchecked exceptions.
                throw new RemoteStorageUnavailableException("Cannot read remote log segment " + file + " of bucket "
                        + bucket.getBucket() + " at offset " + fetchOffset + ": " + e.getMessage(), e);
            }
        }
        ByteBuffer records = ByteBuffer.wrap(collected.toByteArray());
        List<LogBatchHeader> batches = LogRecordsParser.parse(records, LogBytesSource.AS_WRITTEN);
        if (batches.isEmpty() || batches.get(batches.size() - 1).nextOffset() <= fetchOffset) {
            throw new FetchException("Remote log segments of bucket " + bucket.getBucket() + " in " + tabletDir
                    + " hold nothing at or after offset " + fetchOffset);
        }
        return new FetchedRecords(bucket, fetchOffset, records, batches, highWatermark, false);
    }
}
