package dev.riffle.gateway.scan;

import dev.riffle.core.read.BucketRef;
import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Paths;
import dev.riffle.gateway.http.Render;
import dev.riffle.gateway.http.Requests;
import dev.riffle.lake.tiering.TieringStatus;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.session.RequestContext;
import io.javalin.http.Context;
import io.javalin.openapi.HttpMethod;
import io.javalin.openapi.OpenApi;
import io.javalin.openapi.OpenApiParam;
import io.javalin.openapi.OpenApiResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.fluss.exception.DatabaseNotExistException;
import org.apache.fluss.metadata.TableInfo;

/**
 * How far each datalake-enabled table's lake is behind its log ({@link TieringStatus}, as
 * {@code riffle tier --status} prints it): records not yet tiered, and how long the oldest of them
 * has waited, for every table or for one. The console's tiering page polls it; so can a script or
 * an alert.
 */
public final class TieringResource {
    /** A table's lag as both routes give it: its fields (the object's closing brace included), then what they mean. */
    private static final String TABLE_FIELDS = "\"table\": \"db.t\", \"database\", \"name\", \"lake_snapshot_id\": n "
            + "or null, \"lag_records\": n, \"lag_seconds\": s, \"buckets\": [{\"key\", \"tiered\": offset or null, "
            + "\"latest\": offset}]}";
    private static final String LAG_MEANING = " lag_records sums, over buckets, the log offsets past what the lake "
            + "snapshot holds; lag_seconds is the age of the oldest record the lake lacks (0 when it lacks none).";

    @OpenApi(path = Paths.TIERING, methods = HttpMethod.GET, tags = "Tables", operationId = "getTiering",
            summary = "Tiering lag of every datalake-enabled table",
            description = "{\"at\": instant, \"tables\": [{" + TABLE_FIELDS + "]}." + LAG_MEANING + " The work grows with the number of "
                    + "tables, so it stops at the request timeout (504 saying how far it got): ask for one database "
                    + "with ?database= (or one table at " + Paths.TABLE_TIERING + "). With --auth basic, only the "
                    + "tables the caller may see.",
            queryParams = @OpenApiParam(name = "database", description = "Only this database's tables"),
            responses = {
                @OpenApiResponse(status = "200", description = "Each table's lag, sorted by name"),
                @OpenApiResponse(status = "404", description = "No such database"),
                @OpenApiResponse(status = "504", description = "Not done within the request timeout")})
    public void get(Context ctx) throws Exception {
        RequestContext request = Requests.of(ctx);
        Instant at = Instant.now();
        Optional<String> database = Optional.ofNullable(ctx.queryParam("database")).filter(name -> !name.isEmpty());
        List<TieringStatus.TableLag> lags;
        try {
            lags = new ArrayList<>(TieringStatus.of(request.riffle(), database, at.plus(request.limits().requestTimeout())));
        } catch (TimeoutException e) {
            throw new ServiceException(FailureKind.TIMEOUT, "timeout", e.getMessage() + " (the request timeout is "
                    + request.limits().requestTimeout() + ")");
        } catch (ExecutionException e) {
            if (FlussErrors.unwrap(e) instanceof DatabaseNotExistException missing && database.isPresent()) {
                throw request.riffle().databaseNotFound(database.get(), missing);
            }
            throw e;
        }
        lags.sort(Comparator.comparing(lag -> lag.table().toString()));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("at", at.toString());
        body.put("tables", lags.stream().map(TieringResource::describe).toList());
        Render.json(ctx, 200, body);
    }

    @OpenApi(path = Paths.TABLE_TIERING, methods = HttpMethod.GET, tags = "Tables", operationId = "getTableTiering",
            summary = "Tiering lag of one datalake-enabled table",
            description = "{\"at\": instant, " + TABLE_FIELDS + "." + LAG_MEANING,
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            responses = {
                @OpenApiResponse(status = "200", description = "The table's lag"),
                @OpenApiResponse(status = "404", description = "No such table"),
                @OpenApiResponse(status = "400", description = "The table is not datalake-enabled")})
    public void getTable(Context ctx) throws Exception {
        RequestContext request = Requests.of(ctx);
        Instant at = Instant.now();
        TableInfo table = request.tableInfo(Requests.tablePath(ctx));
        if (!table.getTableConfig().isDataLakeEnabled()) {
            throw ApiException.badRequest("not_datalake_enabled", table.getTablePath() + " is not datalake-enabled, so it is "
                    + "never tiered (its property table.datalake.enabled is not true)");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("at", at.toString());
        body.putAll(describe(TieringStatus.of(request.riffle(), table)));
        Render.json(ctx, 200, body);
    }

    private static Map<String, Object> describe(TieringStatus.TableLag lag) {
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
        return table;
    }
}
