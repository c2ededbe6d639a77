package dev.riffle.core.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.exception.LogExpiredException;
import dev.riffle.core.log.LogBatchHeader;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.fluss.compression.ArrowCompressionInfo;
import org.apache.fluss.exception.NetworkException;
import org.apache.fluss.memory.MemorySegment;
import org.apache.fluss.memory.UnmanagedPagedOutputView;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.DefaultLogRecordBatch;
import org.apache.fluss.record.MemoryLogRecordsArrowBuilder;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.arrow.ArrowWriter;
import org.apache.fluss.row.arrow.ArrowWriterPool;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.FetchLogResponse;
import org.apache.fluss.rpc.protocol.Errors;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * {@link LogFetcher} against a faulty cluster: the leader it knows has moved, the new leader sheds
 * load with a Fluss 1.0 backpressure code, a connection drops; the fetcher looks the leader up
 * again each time and ends with every record of the bucket, fetched from the offset it asked for.
 */
class LogFetcherRetryTest {
    private static final TablePath PATH = TablePath.of("shop", "events");
    private static final long TABLE_ID = 42;
    private static final TableBucket BUCKET = new TableBucket(TABLE_ID, 0);
    private static final int ROWS = 5;

    private static final TableInfo TABLE = TableInfo.of(PATH, TABLE_ID, 1, TableDescriptor.builder()
            .schema(Schema.newBuilder().column("id", DataTypes.INT()).build())
            .distributedBy(1).build(), 0, 0);

    /** Tablet servers whose FetchLog answers are scripted, and leaders that change on refresh. */
    private static final class FaultyCluster implements BucketLeaders {
        final Deque<Integer> leadersAfterRefresh = new ArrayDeque<>();
        final Deque<Supplier<CompletableFuture<FetchLogResponse>>> answers = new ArrayDeque<>();
        final List<String> fetches = new ArrayList<>();
        final AtomicInteger refreshes = new AtomicInteger();
        int leader;

        FaultyCluster(int leader) {
            this.leader = leader;
        }

        @Override
        public Optional<Integer> leader(TableBucket bucket) {
            return Optional.of(leader);
        }

        @Override
        public Optional<TabletServerGateway> gateway(int serverId) {
            return Optional.of((TabletServerGateway) Proxy.newProxyInstance(
                    TabletServerGateway.class.getClassLoader(), new Class<?>[] {TabletServerGateway.class},
                    (proxy, method, args) -> {
                        if (!method.getName().equals("fetchLog")) {
                            throw new AssertionError("unexpected call " + method);
                        }
                        var request = (org.apache.fluss.rpc.messages.FetchLogRequest) args[0];
                        fetches.add("ts-" + serverId + "@" + request.getTablesReqAt(0).getBucketsReqAt(0).getFetchOffset());
                        if (answers.isEmpty()) {
                            return new CompletableFuture<FetchLogResponse>(); // no answer yet: as a long poll
                        }
                        return answers.poll().get();
                    }));
        }

        @Override
        public void refresh(TablePath table, Long partitionId) {
            refreshes.incrementAndGet();
            if (!leadersAfterRefresh.isEmpty()) {
                leader = leadersAfterRefresh.poll();
            }
        }
    }

    private static CompletableFuture<FetchLogResponse> bucketError(int code) {
        FetchLogResponse response = new FetchLogResponse();
        response.addTablesResp().setTableId(TABLE_ID).addBucketsResp().setBucketId(0).setErrorCode(code)
                .setErrorMessage("error " + code);
        return CompletableFuture.completedFuture(response);
    }

    private static CompletableFuture<FetchLogResponse> records(byte[] batch) {
        FetchLogResponse response = new FetchLogResponse();
        response.addTablesResp().setTableId(TABLE_ID).addBucketsResp().setBucketId(0).setHighWatermark(ROWS)
                .setRecords(batch);
        return CompletableFuture.completedFuture(response);
    }

    @Test
    void aMovedLeaderABusyServerAndADroppedConnectionEndInEveryRecordOnce() throws Exception {
        FaultyCluster cluster = new FaultyCluster(1);
        cluster.leadersAfterRefresh.add(2);
        cluster.answers.add(() -> bucketError(Errors.NOT_LEADER_OR_FOLLOWER.code()));
        cluster.answers.add(() -> bucketError(FlussErrors.STORAGE_BACKPRESSURE));
        cluster.answers.add(() -> CompletableFuture.failedFuture(new NetworkException("connection reset")));
        byte[] batch = batchOfFiveRows();
        cluster.answers.add(() -> records(batch));

        List<FetchedRecords> fetched = new ArrayList<>();
        try (LogFetcher fetcher = new LogFetcher(cluster, TABLE, Optional.empty(), LogFetcher.Config.DEFAULT)) {
            fetcher.assign(BUCKET, 0);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (fetched.isEmpty() && System.nanoTime() < deadline) {
                fetched.addAll(fetcher.poll(Duration.ofMillis(100)));
            }
            assertThat(fetcher.position(BUCKET)).contains((long) ROWS);
        }

        assertThat(cluster.fetches).startsWith("ts-1@0", "ts-2@0", "ts-2@0", "ts-2@0");
        // Then only the fetch that waits for what comes after the records.
        assertThat(cluster.fetches.subList(4, cluster.fetches.size())).allMatch("ts-2@5"::equals);
        assertThat(cluster.refreshes).hasValue(3);
        assertThat(fetched).hasSize(1);
        FetchedRecords records = fetched.get(0);
        assertThat(records.fetchOffset()).isZero();
        assertThat(records.batches()).extracting(LogBatchHeader::baseOffset, LogBatchHeader::nextOffset)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0L, (long) ROWS));
    }

    @Test
    void aBucketFetchedUntilAStopAsksNothingPastItAndAsksOnOnceTheStopIsLifted() throws Exception {
        FaultyCluster cluster = new FaultyCluster(1);
        byte[] batch = batchOfFiveRows();
        cluster.answers.add(() -> records(batch));
        try (LogFetcher fetcher = new LogFetcher(cluster, TABLE, Optional.empty(), LogFetcher.Config.DEFAULT)) {
            fetcher.assign(BUCKET, 0);
            fetcher.fetchUntil(BUCKET, ROWS);
            List<FetchedRecords> fetched = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (fetched.isEmpty() && System.nanoTime() < deadline) {
                fetched.addAll(fetcher.poll(Duration.ofMillis(100)));
            }
            assertThat(fetched).hasSize(1);
            pollFor(fetcher, Duration.ofMillis(300));
            // The records reach the stop: no fetch waits at the server for rows after them.
            assertThat(cluster.fetches).containsExactly("ts-1@0");

            fetcher.fetchWithoutStops();
            pollFor(fetcher, Duration.ofMillis(200));
            assertThat(cluster.fetches).containsExactly("ts-1@0", "ts-1@5");
        }
    }

    @Test
    void aStopCanOnlyBeSetForAnAssignedBucket() {
        try (LogFetcher fetcher = new LogFetcher(new FaultyCluster(1), TABLE, Optional.empty(),
                LogFetcher.Config.DEFAULT)) {
            assertThatThrownBy(() -> fetcher.fetchUntil(BUCKET, 3)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not assigned");
        }
    }

    @Test
    void aLeaderThatNeverAnswersIsGivenUpOnAndTheBucketFetchedFromTheNextOne() throws Exception {
        FaultyCluster cluster = new FaultyCluster(1);
        cluster.leadersAfterRefresh.add(2);
        // The first fetch goes to a host cut off the network: no answer, no reset, ever.
        cluster.answers.add(CompletableFuture::new);
        byte[] batch = batchOfFiveRows();
        cluster.answers.add(() -> records(batch));

        List<FetchedRecords> fetched = new ArrayList<>();
        try (LogFetcher fetcher = new LogFetcher(cluster, TABLE, Optional.empty(), LogFetcher.Config.DEFAULT,
                Duration.ofMillis(300))) {
            fetcher.assign(BUCKET, 0);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (fetched.isEmpty() && System.nanoTime() < deadline) {
                fetched.addAll(fetcher.poll(Duration.ofMillis(100)));
            }
            assertThat(fetcher.position(BUCKET)).contains((long) ROWS);
        }
        assertThat(cluster.fetches).startsWith("ts-1@0", "ts-2@0");
        assertThat(cluster.refreshes).hasValue(1);
        assertThat(fetched).hasSize(1);
        assertThat(fetched.get(0).fetchOffset()).isZero();
    }

    @Test
    void anOffsetTheLogNoLongerHoldsFailsTheReadAsExpiredNamingTheBucketAndOffset() throws Exception {
        FaultyCluster cluster = new FaultyCluster(1);
        cluster.answers.add(() -> bucketError(Errors.LOG_OFFSET_OUT_OF_RANGE_EXCEPTION.code()));
        try (LogFetcher fetcher = new LogFetcher(cluster, TABLE, Optional.empty(), LogFetcher.Config.DEFAULT)) {
            fetcher.assign(BUCKET, 7);
            assertThatThrownBy(() -> pollFor(fetcher, Duration.ofSeconds(10))).isInstanceOf(LogExpiredException.class).hasMessageContaining("offset 7")
                    .hasMessageContaining("LOG_OFFSET_OUT_OF_RANGE_EXCEPTION").hasMessageContaining("table.log.ttl");
        }
        assertThat(cluster.refreshes).hasValue(0);
    }

    @Test
    void aServerErrorNoRetryCuresFailsTheReadAsAFetchFailure() throws Exception {
        FaultyCluster cluster = new FaultyCluster(1);
        cluster.answers.add(() -> bucketError(Errors.CORRUPT_RECORD_EXCEPTION.code()));
        try (LogFetcher fetcher = new LogFetcher(cluster, TABLE, Optional.empty(), LogFetcher.Config.DEFAULT)) {
            fetcher.assign(BUCKET, 3);
            assertThatThrownBy(() -> pollFor(fetcher, Duration.ofSeconds(10))).isInstanceOf(FetchException.class).hasMessageContaining("offset 3")
                    .hasMessageContaining("CORRUPT_RECORD_EXCEPTION");
        }
        assertThat(cluster.refreshes).hasValue(0);
    }

    /** Polls for {@code time}, so that a failure the fetcher meets in that time is thrown. */
    private static void pollFor(LogFetcher fetcher, Duration time) throws InterruptedException {
        long deadline = System.nanoTime() + time.toNanos();
        while (System.nanoTime() < deadline) {
            fetcher.poll(Duration.ofMillis(100));
        }
    }

    /** One ARROW batch of ids 0..4 at base offset 0, as a 0.9.1 client writes it. */
    private static byte[] batchOfFiveRows() throws Exception {
        try (RootAllocator allocator = new RootAllocator(Long.MAX_VALUE);
                ArrowWriterPool pool = new ArrowWriterPool(allocator)) {
            ArrowWriter writer = pool.getOrCreateWriter(TABLE_ID, 1, 1 << 20, TABLE.getRowType(),
                    ArrowCompressionInfo.NO_COMPRESSION);
            MemoryLogRecordsArrowBuilder builder = MemoryLogRecordsArrowBuilder.builder(1, writer,
                    new UnmanagedPagedOutputView(64 << 10), true);
            for (int id = 0; id < ROWS; id++) {
                builder.append(ChangeType.APPEND_ONLY, GenericRow.of(id));
            }
            builder.close();
            var view = builder.build();
            byte[] bytes = new byte[view.getBytesLength()];
            view.getByteBuf().getBytes(0, bytes);
            DefaultLogRecordBatch batch = new DefaultLogRecordBatch();
            batch.pointTo(MemorySegment.wrap(bytes), 0);
            batch.setBaseLogOffset(0);
            batch.ensureValid();
            return bytes;
        }
    }
}
