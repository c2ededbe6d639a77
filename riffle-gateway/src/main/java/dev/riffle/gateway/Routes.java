package dev.riffle.gateway;

import dev.riffle.gateway.http.Backend;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.meta.DatabaseResource;
import dev.riffle.gateway.meta.PartitionResource;
import dev.riffle.gateway.meta.TableResource;
import dev.riffle.gateway.rows.LookupResource;
import dev.riffle.gateway.rows.WriteResource;
import dev.riffle.gateway.scan.OffsetsResource;
import dev.riffle.gateway.scan.ScanResource;
import dev.riffle.gateway.sql.SqlSessions;
import dev.riffle.gateway.sql.SqlResource;
import io.javalin.Javalin;

/** The gateway's route table: every route, in one place. (/openapi.json comes from the OpenAPI plugin.) */
final class Routes {
    private Routes() {}

    /** Registers every route; {@code lookups} also serves {@link dev.riffle.gateway.rows.RowLookupHandler}. */
    static void register(Javalin app, Backend backend, GatewayMetrics metrics, SqlSessions sqlSessions,
            LookupResource lookups) {
        OpsResource ops = new OpsResource(backend, metrics);
        DatabaseResource databases = new DatabaseResource(backend);
        TableResource tables = new TableResource(backend);
        PartitionResource partitions = new PartitionResource(backend);
        OffsetsResource offsets = new OffsetsResource(backend);
        WriteResource writes = new WriteResource(backend);
        ScanResource scans = new ScanResource(backend);
        SqlResource sql = new SqlResource(backend, sqlSessions);

        app.get(Paths.HEALTH, ops::health);
        app.get(Paths.READY, ops::ready);
        app.get(Paths.METRICS, ops::metrics);

        app.get(Paths.DATABASES, databases::list);
        app.post(Paths.DATABASES, databases::create);
        app.get(Paths.DATABASE, databases::get);
        app.delete(Paths.DATABASE, databases::drop);

        app.get(Paths.TABLES, tables::list);
        app.post(Paths.TABLES, tables::create);
        app.get(Paths.TABLE, tables::get);
        app.delete(Paths.TABLE, tables::drop);

        app.get(Paths.PARTITIONS, partitions::list);
        app.post(Paths.PARTITIONS, partitions::create);
        app.delete(Paths.PARTITION, partitions::drop);
        app.get(Paths.OFFSETS, offsets::get);

        app.post(Paths.ROWS, writes::writeRows);
        app.delete(Paths.ROWS, writes::deleteRows);
        app.get(Paths.ROW, lookups::getRow);
        app.post(Paths.LOOKUP, lookups::lookupRows);
        app.post(Paths.PREFIX_LOOKUP, lookups::prefixLookup);
        app.post(Paths.SCAN, scans::scan);

        app.post(Paths.SQL, sql::sql);
    }
}
