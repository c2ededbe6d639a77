package dev.riffle.gateway.scan;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.RiffleTable;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Backend;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.http.MediaTypes;
import dev.riffle.gateway.http.Render;
import dev.riffle.gateway.http.RowsJson;
import dev.riffle.lake.config.LakeConfig;
import dev.riffle.lake.source.FlussPluginLakeSource;
import dev.riffle.lake.union.UnionRead;
import dev.riffle.lake.union.UnionReader;
import io.javalin.http.Context;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;

/**
 * Scans of a datalake-enabled table's current rows through riffle-lake's union read: the lake
 * snapshot Fluss registered as readable, then the Fluss log past the offsets it records (a
 * primary-key table's log tail merged over it by key), or the lake snapshot alone.
 *
 * <p>A union read cannot resume half-way, so its answer is one complete bounded result, streamed
 * out as it is read ({@code limit} caps it, and {@code truncated} says whether it did). Its
 * {@code next} offsets are where its log part stopped (for a lake-only read, where the snapshot
 * ends): a {@code "source": "log"} scan from there returns exactly the changes after this answer.
 */
final class UnionScan {
    static final String SOURCE_HEADER = "Riffle-Scan-Source";
    static final String SNAPSHOT_HEADER = "Riffle-Lake-Snapshot-Id";
    static final String TRUNCATED_HEADER = "Riffle-Scan-Truncated";
    /** How often a lake-only read retries when tiering commits a new snapshot while it starts. */
    private static final int SNAPSHOT_ATTEMPTS = 3;

    private final Backend backend;
    /** The cluster's lake, asked once (a cluster does not move its lake while the gateway runs). */
    private volatile Optional<LakeConfig> lake = Optional.empty();

    UnionScan(Backend backend) {
        this.backend = requireNonNull(backend, "backend is null");
    }

    /** A pinned union read and where, in the log, its answer ends. */
    private record Pinned(UnionReader reader, Map<TableBucket, Long> next) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            reader.close();
        }
    }

    void scan(Context ctx, TableInfo table, ScanRequest request, ScanSource source, MediaTypes.Format format)
            throws IOException {
        List<String> requested = requestedColumns(table, request);
        List<String> read = new ArrayList<>(requested);
        request.filter().ifPresent(f -> RowFilter.columns(f).stream()
                .filter(table.getRowType().getFieldNames()::contains)
                .filter(column -> !read.contains(column))
                .forEach(read::add));
        LakeConfig lakeConfig = lakeConfig(table);
        try (BufferAllocator allocator = backend.allocator().newChildAllocator("union scan " + table.getTablePath(), 0,
                        Long.MAX_VALUE);
                Pinned pinned = open(table, lakeConfig, read, source, allocator)) {
            UnionReader reader = pinned.reader();
            Schema schema = reader.schema();
            Optional<RowFilter> filter = request.filter().map(f -> RowFilter.parse(f, schema));
            Schema output = project(schema, requested);
            PageCursor cursor = new PageCursor(pinned.next(), pinned.next(), ScanResource.partitionNames(backend, table));
            long limit = request.limit().orElse(Long.MAX_VALUE);
            Optional<Long> snapshot = reader.lakeSnapshotId();
            long rows = format == MediaTypes.Format.JSON
                    ? jsonAnswer(ctx, reader, filter, limit, output, cursor, source, snapshot)
                    : arrowAnswer(ctx, reader, filter, limit, output, cursor, source, snapshot, allocator);
            GatewayMetrics.rows(ctx, "read", rows);
        }
    }

    private List<String> requestedColumns(TableInfo table, ScanRequest request) {
        List<String> names = table.getRowType().getFieldNames();
        if (request.columns().isEmpty()) {
            return names;
        }
        Set<String> columns = new LinkedHashSet<>();
        for (String column : request.columns().get()) {
            if (!names.contains(column)) {
                throw ApiException.badRequest("column_not_found", "Column '" + column + "' does not exist; columns of "
                        + table.getTablePath() + ": " + names + " (a union or lake scan has no changelog columns)");
            }
            columns.add(column);
        }
        if (columns.isEmpty()) {
            throw ApiException.badRequest("invalid_request", "\"columns\" names no column of " + table.getTablePath());
        }
        return List.copyOf(columns);
    }

    private LakeConfig lakeConfig(TableInfo table) {
        Optional<LakeConfig> known = lake;
        if (known.isEmpty()) {
            // The gateway's own connection asks: a user allowed to read a table need not be allowed
            // to describe the cluster, and where the lake is is no secret of any one table.
            try {
                known = LakeConfig.discover(backend.serviceAdmin());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ApiException(503, "interrupted", "Interrupted while asking the cluster for its lake");
            } catch (Exception e) {
                throw new ApiException(503, "cluster_unavailable", "Cannot ask the Fluss cluster where its lake is: "
                        + e.getMessage());
            }
            lake = known;
        }
        return known.orElseThrow(() -> new ApiException(503, "lake_unavailable", "Table " + table.getTablePath()
                + " is datalake-enabled, but the cluster names no lake (datalake.format and its options); scan it "
                + "with \"source\": \"log\""));
    }

    private Pinned open(TableInfo table, LakeConfig lakeConfig, List<String> read, ScanSource source,
            BufferAllocator allocator) throws IOException {
        Riffle riffle = Riffle.using(backend.connection(), allocator); // closes neither
        RiffleTable riffleTable = riffle.table(table.getTablePath());
        FlussPluginLakeSource lakeSource = FlussPluginLakeSource.create(lakeConfig.format(), lakeConfig.options(),
                table.getTablePath(), riffleTable.info().getRowType());
        UnionRead union = UnionRead.of(riffle, lakeSource, riffleTable).columns(read);
        if (source == ScanSource.UNION) {
            UnionReader reader = union.createReader();
            return new Pinned(reader, reader.logStopOffsets());
        }
        union = union.lakeOnly();
        for (int attempt = 1; ; attempt++) {
            // The lake snapshot's offsets are where a lake-only answer ends; they must be those of the
            // snapshot the reader pinned, so ask before and check after.
            LakeSnapshot snapshot = backend.await(backend.admin().getReadableLakeSnapshot(table.getTablePath()),
                    "Looking up the lake snapshot of " + table.getTablePath());
            UnionReader reader = union.createReader();
            if (reader.lakeSnapshotId().equals(Optional.of(snapshot.getSnapshotId()))) {
                return new Pinned(reader, snapshot.getTableBucketsOffset());
            }
            reader.close();
            if (attempt == SNAPSHOT_ATTEMPTS) {
                throw new ApiException(503, "lake_snapshot_changed", "The lake snapshot of " + table.getTablePath()
                        + " changed while the read started, " + SNAPSHOT_ATTEMPTS + " times; retry");
            }
        }
    }

    private static Schema project(Schema read, List<String> requested) {
        List<Field> fields = new ArrayList<>(requested.size());
        for (String column : requested) {
            fields.add(read.findField(column));
        }
        return new Schema(fields, read.getCustomMetadata());
    }

    private long jsonAnswer(Context ctx, UnionReader reader, Optional<RowFilter> filter, long limit, Schema output,
            PageCursor cursor, ScanSource source, Optional<Long> snapshot) throws IOException {
        long[] rows = {0};
        Render.streamJson(ctx, json -> {
            json.writeStartObject();
            json.writeStringField("source", source.label());
            if (snapshot.isPresent()) {
                json.writeNumberField("lake_snapshot_id", snapshot.get());
            } else {
                json.writeNullField("lake_snapshot_id");
            }
            json.writeArrayFieldStart("rows");
            Outcome outcome = consume(reader, filter, limit, (batch, selected, whole) -> {
                List<FieldVector> columns = ScanResource.columnsOf(batch, output);
                for (int row : selected) {
                    RowsJson.writeRow(json, columns, row);
                }
            });
            rows[0] = outcome.rows();
            json.writeEndArray();
            ScanResource.writeOffsets(json, "next", cursor.next());
            ScanResource.writeOffsets(json, "until", cursor.until());
            json.writeBooleanField("done", true);
            json.writeBooleanField("truncated", outcome.truncated());
            json.writeEndObject();
        });
        return rows[0];
    }

    /**
     * Without a limit the rows stream out as they are read (nothing is left out, so every header
     * is known first); with one the answer is assembled first, since a header says whether the
     * limit cut it.
     */
    private long arrowAnswer(Context ctx, UnionReader reader, Optional<RowFilter> filter, long limit, Schema output,
            PageCursor cursor, ScanSource source, Optional<Long> snapshot, BufferAllocator allocator)
            throws IOException {
        List<VectorSchemaRoot> held = new ArrayList<>();
        try (VectorSchemaRoot out = VectorSchemaRoot.create(output, allocator)) {
            if (limit == Long.MAX_VALUE) {
                headers(ctx, cursor, source, snapshot, false);
                long[] rows = {0};
                Render.streamArrow(ctx, out, writer -> rows[0] = consume(reader, filter, limit,
                        (batch, selected, whole) -> {
                            ScanResource.fill(out, batch, selected, whole);
                            writer.writeBatch();
                            out.clear();
                        }).rows());
                return rows[0];
            }
            Outcome outcome = consume(reader, filter, limit, (batch, selected, whole) -> {
                VectorSchemaRoot piece = VectorSchemaRoot.create(output, allocator);
                held.add(piece);
                ScanResource.fill(piece, batch, selected, whole);
            });
            headers(ctx, cursor, source, snapshot, outcome.truncated());
            Render.streamArrow(ctx, out, writer -> {
                for (VectorSchemaRoot piece : held) {
                    ScanResource.fill(out, piece, null, true);
                    writer.writeBatch();
                    out.clear();
                }
            });
            return outcome.rows();
        } finally {
            held.forEach(VectorSchemaRoot::close);
        }
    }

    private static void headers(Context ctx, PageCursor cursor, ScanSource source, Optional<Long> snapshot,
            boolean truncated) throws IOException {
        ScanResource.offsetHeaders(ctx, cursor);
        ctx.header(SOURCE_HEADER, source.label());
        snapshot.ifPresent(id -> ctx.header(SNAPSHOT_HEADER, Long.toString(id)));
        ctx.header(TRUNCATED_HEADER, Boolean.toString(truncated));
    }

    private interface Sink {
        /** Rows {@code selected} of {@code batch} belong to the answer; {@code whole} when that is every row. */
        void accept(VectorSchemaRoot batch, int[] selected, boolean whole) throws IOException;
    }

    /** How many rows the answer took, and whether the limit stopped the read before its end. */
    private record Outcome(long rows, boolean truncated) {}

    private static Outcome consume(UnionReader reader, Optional<RowFilter> filter, long limit, Sink sink)
            throws IOException {
        long remaining = limit;
        long taken = 0;
        boolean cut = false;
        while (remaining > 0 && reader.hasNext()) {
            try (VectorSchemaRoot batch = reader.next()) {
                IntPredicate test = filter.map(f -> f.bind(batch)).orElse(row -> true);
                int rowCount = batch.getRowCount();
                int[] selected = new int[rowCount];
                int count = 0;
                for (int row = 0; row < rowCount; row++) {
                    if (test.test(row)) {
                        if (count == remaining) {
                            cut = true;
                            break;
                        }
                        selected[count++] = row;
                    }
                }
                if (count > 0) {
                    sink.accept(batch, Arrays.copyOf(selected, count), count == rowCount);
                }
                remaining -= count;
                taken += count;
            }
        }
        // Rows the filter would drop may still follow; "truncated" says the read did not reach its end.
        boolean truncated = cut || (remaining == 0 && reader.hasNext());
        return new Outcome(taken, truncated);
    }
}
