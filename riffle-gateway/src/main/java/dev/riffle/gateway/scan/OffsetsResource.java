package dev.riffle.gateway.scan;

import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.gateway.http.Paths;
import dev.riffle.gateway.http.Render;
import dev.riffle.gateway.http.Requests;
import dev.riffle.server.session.RequestContext;
import io.javalin.http.Context;
import io.javalin.openapi.HttpMethod;
import io.javalin.openapi.OpenApi;
import io.javalin.openapi.OpenApiParam;
import io.javalin.openapi.OpenApiResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;

/** Each bucket's earliest and latest log offset, and the offset the lake has tiered up to. */
public final class OffsetsResource {
    @OpenApi(path = Paths.OFFSETS, methods = HttpMethod.GET, tags = "Tables", operationId = "getOffsets",
            summary = "Earliest, latest and lake-tiered offset of every bucket",
            description = "Each bucket's \"key\" is how scans name it in from/until/next offsets. \"lake\" is the log "
                    + "offset up to which the latest lake snapshot holds the bucket, null without one.",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            responses = {
                @OpenApiResponse(status = "200", description = "{\"table\", \"lake_snapshot_id\", \"buckets\": [...]}"),
                @OpenApiResponse(status = "404", description = "No such table")})
    public void get(Context ctx) {
        RequestContext request = Requests.of(ctx);
        TableInfo table = request.tableInfo(Requests.tablePath(ctx));
        Optional<LakeSnapshot> lake = lakeSnapshot(request, table);
        List<Map<String, Object>> buckets = new ArrayList<>();
        // Through the read façade: it asks the leaders with retries and a per-try timeout (Fluss
        // 0.9.1's own listOffsets never completes when its request to a stopped leader fails).
        ReadBuilder log = table.hasPrimaryKey() ? request.riffle().table(table).read().changelog()
                : request.riffle().table(table).read().log();
        Map<BucketRef, Long> first = log.startOffsets();
        Map<BucketRef, Long> last = log.stopOffsets();
        if (table.isPartitioned()) {
            List<PartitionInfo> partitions = request.await(request.admin().listPartitionInfos(table.getTablePath()),
                    "Listing partitions of " + table.getTablePath());
            partitions.sort(Comparator.comparing(PartitionInfo::getPartitionName));
            for (PartitionInfo partition : partitions) {
                addBuckets(buckets, table, Optional.of(partition), lake, first, last);
            }
        } else {
            addBuckets(buckets, table, Optional.empty(), lake, first, last);
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("table", table.getTablePath().toString());
        result.put("lake_snapshot_id", lake.map(LakeSnapshot::getSnapshotId).orElse(null));
        result.put("buckets", buckets);
        Render.json(ctx, 200, result);
    }

    private static void addBuckets(List<Map<String, Object>> out, TableInfo table, Optional<PartitionInfo> partition,
            Optional<LakeSnapshot> lake, Map<BucketRef, Long> first, Map<BucketRef, Long> last) {
        for (int bucket = 0; bucket < table.getNumBuckets(); bucket++) {
            Long partitionId = partition.map(PartitionInfo::getPartitionId).orElse(null);
            TableBucket id = new TableBucket(table.getTableId(), partitionId, bucket);
            BucketRef ref = new BucketRef(partition.map(PartitionInfo::getPartitionName), bucket);
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("key", BucketKeys.key(ref));
            partition.ifPresent(p -> entry.put("partition", p.getPartitionName()));
            entry.put("bucket", bucket);
            entry.put("earliest", first.get(ref));
            entry.put("latest", last.get(ref));
            entry.put("lake", lake.map(s -> s.getTableBucketsOffset().get(id)).orElse(null));
            out.add(entry);
        }
    }

    /** The latest lake snapshot, if the table has been tiered at all. */
    private static Optional<LakeSnapshot> lakeSnapshot(RequestContext request, TableInfo table) {
        try {
            return Optional.of(request.await(request.admin().getLatestLakeSnapshot(table.getTablePath()),
                    "Looking up the lake snapshot of " + table.getTablePath()));
        } catch (RuntimeException e) {
            if (FlussErrors.unwrap(e) instanceof LakeTableSnapshotNotExistException) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
