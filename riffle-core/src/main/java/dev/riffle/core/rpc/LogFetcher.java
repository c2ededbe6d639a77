package dev.riffle.core.rpc;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.LogExpiredException;
import dev.riffle.core.exception.TableNotFoundException;
import dev.riffle.core.log.LogBatchHeader;
import dev.riffle.core.log.LogBytesSource;
import dev.riffle.core.log.LogRecordsParser;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.FetchLogRequest;
import org.apache.fluss.rpc.messages.FetchLogResponse;
import org.apache.fluss.rpc.messages.PbFetchLogReqForTable;
import org.apache.fluss.rpc.messages.PbFetchLogRespForBucket;
import org.apache.fluss.rpc.messages.PbFetchLogRespForTable;
import org.apache.fluss.rpc.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches raw log record batches of one table from the bucket leaders with FetchLog RPCs, and
 * hands them over undecoded.
 *
 * <p>This is the part of Fluss's {@code LogFetcher} that Riffle needs, minus the conversion to
 * rows. Unlike Fluss's fetcher, which keeps one request in flight per leader, it spreads a
 * leader's buckets over {@link Config#requestsPerLeader()} concurrent requests.
 * The fetch position of a bucket moves forward when a response arrives (its batch headers say
 * where the next fetch starts), so the next request can go out while the caller still decodes
 * the previous one. Buffered responses are bounded by {@link Config#maxBufferedBytes()}.
 *
 * <p>Not thread-safe for callers: one thread assigns, unassigns and polls. Responses complete on
 * the RPC client's threads and hand over through this object's monitor.
 */
public final class LogFetcher implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogFetcher.class);
    private static final int CLIENT_FOLLOWER_ID = -1;
    private static final int EMPTY_ANSWERS_BEFORE_FAILING = 3;
    /**
     * How long a FetchLog may stay unanswered beyond its own {@link Config#maxWaitMs()} before its
     * buckets are fetched again from a leader looked up anew. The 0.9.1 client never gives up on a
     * request in flight (apache/fluss#279), so a leader whose host dropped off the network, which
     * sends no reset, would otherwise hold the read until the host is back.
     */
    static final Duration UNANSWERED_FETCH = Duration.ofSeconds(10);

    /**
     * Request sizing. The defaults suit bounded reads of whole tables.
     *
     * @param requestsPerLeader how many FetchLog requests may be in flight to one tablet server;
     *     the buckets it leads are spread over them, so the server works on several at once
     */
    public record Config(int maxBytes, int maxBytesPerBucket, int maxWaitMs, long maxBufferedBytes,
            int requestsPerLeader) {
        public static final Config DEFAULT = new Config(8 << 20, 4 << 20, 500, 24L << 20, 2);

        /** What a read that needs only a few rows asks of a bucket at a time, per row it needs. */
        static final int BYTES_PER_ROW_WANTED = 256;
        /** The least a read that needs only a few rows asks of a bucket at a time. */
        static final int MIN_BYTES_PER_BUCKET = 64 << 10;

        public Config {
            if (maxBytes <= 0 || maxBytesPerBucket <= 0 || maxWaitMs < 0 || maxBufferedBytes <= 0
                    || requestsPerLeader <= 0) {
                throw new IllegalArgumentException("fetch sizes must be positive: " + this);
            }
        }

        /**
         * This config for a read that stops after about {@code rows} rows (a page, a limit): each
         * bucket is asked for about {@value #BYTES_PER_ROW_WANTED} bytes per row wanted (at least
         * 64 KiB), one request per tablet server at a time, with one request's worth read ahead; a
         * limit too large to need less than this config's sizes keeps this config. A page then costs what the page costs, not what the fetch
         * sizes of a whole-table read would fetch and decode (up to 4 MiB a bucket); a server
         * still answers with at least one whole batch, so no read stops short.
         */
        public Config forRows(long rows) {
            if (rows < 0) {
                throw new IllegalArgumentException("rows must be >= 0, got " + rows);
            }
            int perBucket = (int) Math.min(maxBytesPerBucket,
                    Math.max(MIN_BYTES_PER_BUCKET, Math.min(rows, Integer.MAX_VALUE / BYTES_PER_ROW_WANTED)
                            * BYTES_PER_ROW_WANTED));
            if (perBucket == maxBytesPerBucket) {
                return this; // a limit this large reads like a whole table
            }
            int request = Math.min(maxBytes, perBucket * 4);
            return new Config(request, perBucket, maxWaitMs, Math.min(maxBufferedBytes, 2L * request), 1);
        }
    }

    private final BucketLeaders leaders;
    private final TablePath tablePath;
    private final long tableId;
    private final Optional<int[]> projectedFields;
    private final Config config;
    private final Duration unansweredFetch;

    // Guarded by this.
    private final Map<TableBucket, Long> positions = new LinkedHashMap<>();
    private final Map<TableBucket, Long> generations = new HashMap<>();
    /** Where fetching a bucket ends, for the buckets a bounded read covers. */
    private final Map<TableBucket, Long> stops = new HashMap<>();
    private final Map<Integer, Integer> requestsInFlight = new HashMap<>();
    private final Set<TableBucket> bucketsInFlight = new HashSet<>();
    private final Set<TableBucket> needMetadata = new HashSet<>();
    private final ArrayDeque<FetchedRecords> completed = new ArrayDeque<>();
    private final ArrayDeque<RemoteRead> remoteReads = new ArrayDeque<>();
    private final Map<TableBucket, Integer> emptyAnswers = new HashMap<>();
    private final List<RuntimeException> failures = new ArrayList<>();
    private long bufferedBytes;
    private long nextGeneration;
    private boolean closed;

    /**
     * @param projectedFields field positions to project on the server, strictly ascending; empty
     *     for every column
     */
    public LogFetcher(FlussConnection connection, TableInfo table, Optional<int[]> projectedFields, Config config) {
        this(BucketLeaders.of(requireNonNull(connection, "connection is null").getMetadataUpdater()), table,
                projectedFields, config);
    }

    LogFetcher(BucketLeaders leaders, TableInfo table, Optional<int[]> projectedFields, Config config) {
        this(leaders, table, projectedFields, config, UNANSWERED_FETCH);
    }

    LogFetcher(BucketLeaders leaders, TableInfo table, Optional<int[]> projectedFields, Config config,
            Duration unansweredFetch) {
        this.unansweredFetch = requireNonNull(unansweredFetch, "unansweredFetch is null");
        this.leaders = requireNonNull(leaders, "leaders is null");
        this.tablePath = requireNonNull(table, "table is null").getTablePath();
        this.tableId = table.getTableId();
        this.projectedFields = requireNonNull(projectedFields, "projectedFields is null").map(int[]::clone);
        this.config = requireNonNull(config, "config is null");
    }

    /** Starts (or restarts) fetching a bucket at an offset; data already fetched for it is dropped. */
    public synchronized void assign(TableBucket bucket, long offset) {
        requireNonNull(bucket, "bucket is null");
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0, got " + offset + " for " + bucket);
        }
        dropBuffered(bucket);
        positions.put(bucket, offset);
        generations.put(bucket, nextGeneration++);
        stops.remove(bucket);
    }

    /**
     * Ends the fetching of an assigned bucket at {@code stopOffset} (exclusive): once its position
     * reaches it, no further fetch is sent. A bounded read needs nothing past its stop, and a fetch
     * at the end of a log is held by the tablet server for up to {@link Config#maxWaitMs()} waiting
     * for rows nobody would read.
     *
     * @throws IllegalArgumentException if the bucket is not assigned
     */
    public synchronized void fetchUntil(TableBucket bucket, long stopOffset) {
        requireNonNull(bucket, "bucket is null");
        if (!positions.containsKey(bucket)) {
            throw new IllegalArgumentException(bucket + " is not assigned");
        }
        stops.put(bucket, stopOffset);
    }

    /** Lifts every stop that {@link #fetchUntil} set: assigned buckets are fetched on as their log grows. */
    public synchronized void fetchWithoutStops() {
        stops.clear();
    }

    /** Stops fetching a bucket; data already fetched for it is dropped. */
    public synchronized void unassign(TableBucket bucket) {
        dropBuffered(bucket);
        emptyAnswers.remove(bucket);
        positions.remove(bucket);
        generations.remove(bucket);
        needMetadata.remove(bucket);
        stops.remove(bucket);
    }

    public synchronized Set<TableBucket> assigned() {
        return Set.copyOf(positions.keySet());
    }

    /** The offset the next fetch of a bucket starts at, if the bucket is assigned. */
    public synchronized Optional<Long> position(TableBucket bucket) {
        return Optional.ofNullable(positions.get(bucket));
    }

    /**
     * Sends fetches for assigned buckets that have none in flight, then returns what has arrived,
     * waiting up to {@code timeout} for the first response. Returns an empty list on timeout.
     *
     * @throws FetchException when a bucket cannot be read (offset out of range, no permission,
     *     data only in remote storage, ...)
     */
    public List<FetchedRecords> poll(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        refreshMetadataIfNeeded();
        readRemoteSegments();
        synchronized (this) {
            while (true) {
                throwFailures();
                if (!remoteReads.isEmpty()) {
                    return List.of(); // the caller polls again and reads them outside the lock
                }
                sendFetches();
                if (!completed.isEmpty()) {
                    List<FetchedRecords> result = new ArrayList<>(completed);
                    completed.clear();
                    bufferedBytes = 0;
                    sendFetches(); // the buffer has room again
                    return result;
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0 || closed) {
                    return List.of();
                }
                if (!needMetadata.isEmpty()) {
                    return List.of(); // the caller polls again, and the refresh happens outside the lock
                }
                TimeUnit.NANOSECONDS.timedWait(this, remaining);
            }
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        positions.clear();
        generations.clear();
        stops.clear();
        completed.clear();
        bufferedBytes = 0;
        notifyAll();
    }

    private void refreshMetadataIfNeeded() {
        Set<TableBucket> buckets;
        synchronized (this) {
            if (needMetadata.isEmpty()) {
                return;
            }
            buckets = new HashSet<>(needMetadata);
        }
        Set<Long> partitions = new HashSet<>();
        for (TableBucket bucket : buckets) {
            partitions.add(bucket.getPartitionId());
        }
        for (Long partitionId : partitions) {
            try {
                leaders.refresh(tablePath, partitionId);
            } catch (RuntimeException e) {
                LOG.debug("Metadata refresh for {} (partition {}) failed; will retry", tablePath, partitionId, e);
            }
        }
        // A table dropped (and maybe created again) under the read has no leaders to wait for.
        Optional<Long> current = leaders.tableId(tablePath);
        if (current.isPresent() && current.get() != tableId) {
            synchronized (this) {
                failures.add(new TableNotFoundException(tablePath, "Table " + tablePath + " was dropped and created"
                        + " again while it was read (table id " + tableId + ", now " + current.get() + "); read it again",
                        null));
            }
        }
        synchronized (this) {
            needMetadata.removeAll(buckets);
        }
    }

    private void readRemoteSegments() {
        while (true) {
            RemoteRead read;
            synchronized (this) {
                read = remoteReads.poll();
            }
            if (read == null) {
                return;
            }
            FetchedRecords fetched;
            try {
                fetched = read.segments().read(config.maxBytesPerBucket(), read.highWatermark());
            } catch (RuntimeException e) {
                synchronized (this) {
                    bucketsInFlight.remove(read.segments().bucket());
                    failures.add(e);
                }
                continue;
            }
            synchronized (this) {
                TableBucket bucket = fetched.bucket();
                bucketsInFlight.remove(bucket);
                if (read.generation() == generations.getOrDefault(bucket, -1L)
                        && positions.getOrDefault(bucket, -1L) == fetched.fetchOffset()) {
                    LogBatchHeader last = fetched.batches().get(fetched.batches().size() - 1);
                    positions.put(bucket, Math.max(fetched.fetchOffset(), last.nextOffset()));
                    completed.add(fetched);
                    bufferedBytes += fetched.records().remaining();
                }
                notifyAll();
            }
        }
    }

    private void sendFetches() {
        if (closed || bufferedBytes >= config.maxBufferedBytes()) {
            return;
        }
        Map<Integer, List<TableBucket>> byLeader = new LinkedHashMap<>();
        for (TableBucket bucket : positions.keySet()) {
            if (bucketsInFlight.contains(bucket) || needMetadata.contains(bucket) || reachedStop(bucket)) {
                continue;
            }
            Optional<Integer> leader = leaders.leader(bucket);
            if (leader.isEmpty()) {
                needMetadata.add(bucket);
                continue;
            }
            if (requestsInFlight.getOrDefault(leader.get(), 0) < config.requestsPerLeader()) {
                byLeader.computeIfAbsent(leader.get(), l -> new ArrayList<>()).add(bucket);
            }
        }
        byLeader.forEach((leader, buckets) -> {
            int requests = Math.min(buckets.size(), config.requestsPerLeader() - requestsInFlight.getOrDefault(leader, 0));
            List<List<TableBucket>> groups = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                groups.add(new ArrayList<>());
            }
            for (int i = 0; i < buckets.size(); i++) {
                groups.get(i % requests).add(buckets.get(i));
            }
            groups.forEach(group -> sendFetch(leader, group));
        });
    }

    private boolean reachedStop(TableBucket bucket) {
        Long stop = stops.get(bucket);
        return stop != null && positions.get(bucket) >= stop;
    }

    private void sendFetch(int leader, List<TableBucket> buckets) {
        Optional<TabletServerGateway> found = leaders.gateway(leader);
        if (found.isEmpty()) {
            needMetadata.addAll(buckets);
            return;
        }
        TabletServerGateway gateway = found.get();
        FetchLogRequest request = new FetchLogRequest()
                .setFollowerServerId(CLIENT_FOLLOWER_ID)
                .setMaxBytes(config.maxBytes())
                .setMaxWaitMs(config.maxWaitMs())
                .setMinBytes(1);
        PbFetchLogReqForTable tableRequest = request.addTablesReq()
                .setTableId(tableId)
                .setProjectionPushdownEnabled(projectedFields.isPresent());
        projectedFields.ifPresent(tableRequest::setProjectedFields);
        Map<TableBucket, Request> sent = new HashMap<>();
        for (TableBucket bucket : buckets) {
            long offset = positions.get(bucket);
            var bucketRequest = tableRequest.addBucketsReq()
                    .setBucketId(bucket.getBucket())
                    .setFetchOffset(offset)
                    .setMaxFetchBytes(config.maxBytesPerBucket());
            if (bucket.getPartitionId() != null) {
                bucketRequest.setPartitionId(bucket.getPartitionId());
            }
            sent.put(bucket, new Request(offset, generations.get(bucket)));
        }
        requestsInFlight.merge(leader, 1, Integer::sum);
        bucketsInFlight.addAll(buckets);
        long sentAt = System.nanoTime();
        // A late answer after the timeout completes nothing: the future is settled, the buckets asked again.
        gateway.fetchLog(request).orTimeout(config.maxWaitMs() + unansweredFetch.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((response, error) -> {
                    if (LOG.isDebugEnabled()) {
                        LOG.debug("FetchLog to {} for {} buckets answered in {} us", leader, sent.size(),
                                (System.nanoTime() - sentAt) / 1000);
                    }
                    onResponse(leader, sent, response, error);
                });
    }

    private synchronized void onResponse(int leader, Map<TableBucket, Request> sent, FetchLogResponse response,
            Throwable error) {
        requestsInFlight.merge(leader, -1, (a, b) -> a + b <= 0 ? null : a + b);
        bucketsInFlight.removeAll(sent.keySet());
        try {
            if (error != null) {
                LOG.debug("FetchLog to tablet server {} failed; refreshing metadata", leader, error);
                needMetadata.addAll(sent.keySet());
                return;
            }
            for (PbFetchLogRespForTable tableResponse : response.getTablesRespsList()) {
                for (PbFetchLogRespForBucket bucketResponse : tableResponse.getBucketsRespsList()) {
                    TableBucket bucket = new TableBucket(tableResponse.getTableId(),
                            bucketResponse.hasPartitionId() ? bucketResponse.getPartitionId() : null,
                            bucketResponse.getBucketId());
                    Request request = sent.get(bucket);
                    if (request != null && isCurrent(bucket, request)) {
                        onBucketResponse(bucket, request.offset(), bucketResponse);
                    }
                }
            }
        } catch (RuntimeException e) {
            failures.add(e);
        } finally {
            notifyAll();
        }
    }

    private boolean isCurrent(TableBucket bucket, Request request) {
        // A bucket reassigned or dropped while its fetch was in flight ignores the old answer.
        return request.generation() == generations.getOrDefault(bucket, -1L)
                && positions.getOrDefault(bucket, -1L) == request.offset();
    }

    private void onBucketResponse(TableBucket bucket, long fetchOffset, PbFetchLogRespForBucket response) {
        if (response.hasErrorCode() && response.getErrorCode() != Errors.NONE.code()) {
            Errors error = Errors.forCode(response.getErrorCode());
            String message = response.hasErrorMessage() ? response.getErrorMessage() : error.message();
            if (FlussErrors.isRetriableFetch(response.getErrorCode())) {
                LOG.debug("Fetch of {} at {} failed with {} ({}): {}; retrying", bucket, fetchOffset, error,
                        response.getErrorCode(), message);
                needMetadata.add(bucket);
                return;
            }
            String what = describe(bucket) + " cannot be read at offset " + fetchOffset + ": " + message + " ("
                    + error.name() + ")";
            if (error == Errors.LOG_OFFSET_OUT_OF_RANGE_EXCEPTION) {
                // A read only asks for offsets the bucket held when it began: the log has expired under it.
                failures.add(new LogExpiredException(what + "; the log there expired (table.log.ttl) while it was"
                        + " read: read again from the earliest offset, or read the table through its lake",
                        error.exception(message)));
                return;
            }
            failures.add(new FetchException(what, error.exception(message)));
            return;
        }
        if (response.hasRemoteLogFetchInfo()) {
            // Below the local log: the caller's thread reads the segment files (blocking I/O has
            // no place on the RPC threads). The bucket stays marked in flight until then.
            remoteReads.add(new RemoteRead(RemoteLogSegments.of(bucket, fetchOffset, response.getRemoteLogFetchInfo()),
                    generations.get(bucket), response.hasHighWatermark() ? response.getHighWatermark() : -1L));
            bucketsInFlight.add(bucket);
            return;
        }
        if (!response.hasRecords() || response.getRecordsSize() == 0) {
            long highWatermark = response.hasHighWatermark() ? response.getHighWatermark() : -1L;
            // Rows exist below the high watermark, yet the server returns none: Fluss 0.9 answers
            // that way when the offset is only in the lake tier. Fail instead of spinning forever.
            if (highWatermark > fetchOffset && emptyAnswers.merge(bucket, 1, Integer::sum) >= EMPTY_ANSWERS_BEFORE_FAILING) {
                failures.add(new FetchException(describe(bucket) + " returns no rows at offset " + fetchOffset
                        + " although its high watermark is " + highWatermark + ": that part of the log is no longer in"
                        + " Fluss (it may only be in the lake tier); read the table with the union read"));
            }
            return;
        }
        ByteBuffer records = response.getRecordsSlice().nioBuffer();
        List<LogBatchHeader> batches = LogRecordsParser.parse(records,
                projectedFields.isPresent() ? LogBytesSource.SERVER_PROJECTED : LogBytesSource.AS_WRITTEN);
        LOG.debug("Fetched {} bytes in {} batches of {} at {}", records.remaining(), batches.size(), bucket, fetchOffset);
        if (batches.isEmpty()) {
            // Bytes but not one whole batch: the first batch is cut off, and asking again would get the
            // same answer forever. Fail after a few such answers, saying why.
            if (emptyAnswers.merge(bucket, 1, Integer::sum) >= EMPTY_ANSWERS_BEFORE_FAILING) {
                failures.add(new FetchException(describe(bucket) + " answers " + records.remaining() + " bytes at"
                        + " offset " + fetchOffset + " that hold no whole batch: its first batch is larger than one"
                        + " fetch returns; raise the fetch size (LogFetcher.Config maxBytesPerBucket)"));
            }
            return;
        }
        emptyAnswers.remove(bucket);
        long next = Math.max(fetchOffset, batches.get(batches.size() - 1).nextOffset());
        positions.put(bucket, next);
        long highWatermark = response.hasHighWatermark() ? response.getHighWatermark() : -1L;
        completed.add(new FetchedRecords(bucket, fetchOffset, records, batches, highWatermark, projectedFields.isPresent()));
        bufferedBytes += records.remaining();
    }

    private void dropBuffered(TableBucket bucket) {
        completed.removeIf(fetched -> {
            if (fetched.bucket().equals(bucket)) {
                bufferedBytes -= fetched.records().remaining();
                return true;
            }
            return false;
        });
    }

    private void throwFailures() {
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.clear();
            throw first;
        }
    }

    private String describe(TableBucket bucket) {
        return "Bucket " + bucket.getBucket()
                + (bucket.getPartitionId() == null ? "" : " of partition id " + bucket.getPartitionId())
                + " of table " + tablePath;
    }

    /** Unassigns every bucket in {@code buckets}. */
    public synchronized void unassignAll(Collection<TableBucket> buckets) {
        List.copyOf(buckets).forEach(this::unassign);
    }

    private record Request(long offset, long generation) {}

    private record RemoteRead(RemoteLogSegments segments, long generation, long highWatermark) {}
}
