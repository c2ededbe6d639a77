package dev.riffle.gateway.scan;

import dev.riffle.core.read.BucketRef;
import dev.riffle.gateway.Paths;
import dev.riffle.gateway.http.Render;
import dev.riffle.gateway.http.Requests;
import dev.riffle.lake.tiering.TieringStatus;
import io.javalin.http.Context;
import io.javalin.openapi.HttpMethod;
import io.javalin.openapi.OpenApi;
import io.javalin.openapi.OpenApiResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How far each datalake-enabled table's lake is behind its log ({@link TieringStatus}, as
 * {@code riffle tier --status} prints it): records not yet tiered, and how long the oldest of them
 * has waited. The console's tiering page polls it; so can a script or an alert.
 */
public final class TieringResource {
    @OpenApi(path = Paths.TIERING, methods = HttpMethod.GET, tags = "Tables", operationId = "getTiering",
            summary = "Tiering lag of every datalake-enabled table",
            description = "{\"at\": instant, \"tables\": [{\"table\": \"db.t\", \"database\", \"name\", "
                    + "\"lake_snapshot_id\": n or null, \"lag_records\": n, \"lag_seconds\": s, \"buckets\": "
                    + "[{\"key\", \"tiered\": offset or null, \"latest\": offset}]}]}. lag_records sums, over "
                    + "buckets, the log offsets past what the lake snapshot holds; lag_seconds is the age of the "
                    + "oldest record the lake lacks (0 when it lacks none). With --auth basic, only the tables "
                    + "the caller may see.",
            responses = @OpenApiResponse(status = "200", description = "Each table's lag, sorted by name"))
    public void get(Context ctx) throws Exception {
        Instant at = Instant.now();
        List<TieringStatus.TableLag> lags = new ArrayList<>(TieringStatus.of(Requests.of(ctx).riffle()));
        lags.sort(Comparator.comparing(lag -> lag.table().toString()));
        List<Map<String, Object>> tables = new ArrayList<>();
        for (TieringStatus.TableLag lag : lags) {
            Map<String, Object> table = new LinkedHashMap<>();
            table.put("table", lag.table().toString());
            table.put("database", lag.table().getDatabaseName());
            table.put("name", lag.table().getTableName());
            table.put("lake_snapshot_id", lag.lakeSnapshotId().orElse(null));
            table.put("lag_records", lag.lagRecords());
            table.put("lag_seconds", lag.lag().toMillis() / 1000.0);
            List<Map<String, Object>> buckets = new ArrayList<>();
            lag.latestOffsets().entrySet().stream()
                    .sorted(Map.Entry.comparingByKey(Comparator
                            .comparing((BucketRef ref) -> ref.partition().orElse(""))
                            .thenComparingInt(BucketRef::bucket)))
                    .forEach(entry -> {
                        Map<String, Object> bucket = new LinkedHashMap<>();
                        bucket.put("key", BucketKeys.key(entry.getKey()));
                        bucket.put("tiered", lag.tieredOffsets().get(entry.getKey()));
                        bucket.put("latest", entry.getValue());
                        buckets.add(bucket);
                    });
            table.put("buckets", buckets);
            tables.add(table);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("at", at.toString());
        body.put("tables", tables);
        Render.json(ctx, 200, body);
    }
}
