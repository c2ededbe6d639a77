package dev.riffle.gateway;

import dev.riffle.gateway.console.ConsoleFiles;
import dev.riffle.gateway.console.ConsoleHandler;
import dev.riffle.gateway.console.ConsoleMode;
import dev.riffle.gateway.http.DirectAnswerConnectionFactory;
import dev.riffle.gateway.http.DirectRoute;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.http.InlineAnswerConnectionFactory;
import dev.riffle.gateway.http.MediaTypes;
import dev.riffle.gateway.http.Paths;
import dev.riffle.gateway.meta.DatabaseResource;
import dev.riffle.gateway.meta.PartitionResource;
import dev.riffle.gateway.meta.TableResource;
import dev.riffle.gateway.rows.LookupResource;
import dev.riffle.gateway.rows.PlainRowLookup;
import dev.riffle.gateway.rows.RowLookupHandler;
import dev.riffle.gateway.rows.WriteResource;
import dev.riffle.gateway.scan.OffsetsResource;
import dev.riffle.gateway.scan.ScanResource;
import dev.riffle.gateway.scan.TieringResource;
import dev.riffle.gateway.sql.SqlLookupHandler;
import dev.riffle.gateway.sql.SqlResource;
import dev.riffle.gateway.sql.StatementsResource;
import dev.riffle.server.principal.Auth;
import dev.riffle.server.session.Sessions;
import io.javalin.Javalin;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.fluss.client.FlussConnection;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/** The gateway's route table: every route, in one place. (/openapi.json comes from the OpenAPI plugin.) */
final class Routes {
    private Routes() {}

    /**
     * What is answered in Jetty ahead of Javalin, in order: only the plainest form of {@code GET}
     * {@link Paths#ROW} (no query, no escapes, JSON, no authentication), the gateway's hottest
     * small request, answered as the Javalin route below answers it, through the same
     * {@link LookupResource}; a repeated SQL point query ({@link SqlLookupHandler}, without
     * authentication), answered as the {@code /v1/sql} route answers it; and the web console ({@code GET /} and {@code /console/...}, unless
     * it is off), which is not part of the API. Every other request passes on to Javalin.
     */
    static List<HandlerWrapper> aheadOfJavalin(PlainRowLookup rowLookup, Sessions sessions, GatewayMetrics metrics,
            ConsoleMode console, Auth auth) {
        List<HandlerWrapper> handlers = new ArrayList<>();
        if (!sessions.authenticates()) {
            handlers.add(new RowLookupHandler(rowLookup));
            handlers.add(new SqlLookupHandler(sessions, metrics));
        }
        if (console != ConsoleMode.OFF) {
            handlers.add(new ConsoleHandler(ConsoleFiles.fromClasspath(), console, auth, metrics));
        }
        return handlers;
    }

    /**
     * The routes the gateway's connections answer themselves, before Jetty's request machinery
     * ({@link DirectAnswerConnectionFactory}): the plainest {@code GET} {@link Paths#ROW}, as
     * {@link PlainRowLookup} takes it (the same as {@link RowLookupHandler} and the Javalin route
     * below answer it). A connection whose request no direct route takes becomes Jetty's HTTP/1.1
     * connection, where {@link #aheadOfJavalin} and the routes below answer it. None when the
     * gateway authenticates: then every request goes through Jetty's request machinery.
     */
    static List<DirectRoute> direct(PlainRowLookup rowLookup, Sessions sessions) {
        return sessions.authenticates() ? List.of() : List.of(rowLookup);
    }

    /**
     * The requests answered without blocking, which Jetty may take on its selector thread
     * ({@link InlineAnswerConnectionFactory}): the plain point lookups of {@link RowLookupHandler}
     * and the SQL requests {@link SqlLookupHandler} takes (handing over those it does not answer);
     * none when the gateway authenticates.
     */
    static Predicate<HttpServletRequest> answeredInline(Sessions sessions) {
        if (sessions.authenticates()) {
            return request -> false;
        }
        return request -> RowLookupHandler.answersInline(request) || SqlLookupHandler.answersInline(request);
    }

    /**
     * Registers every route; {@code service} is the gateway's own connection (for {@code /ready}),
     * {@code lookups} also serves {@link #aheadOfJavalin}.
     */
    static void register(Javalin app, FlussConnection service, GatewayMetrics metrics, LookupResource lookups) {
        OpsResource ops = new OpsResource(service, metrics);
        DatabaseResource databases = new DatabaseResource();
        TableResource tables = new TableResource();
        PartitionResource partitions = new PartitionResource();
        OffsetsResource offsets = new OffsetsResource();
        WriteResource writes = new WriteResource();
        ScanResource scans = new ScanResource();
        SqlResource sql = new SqlResource();
        StatementsResource statements = new StatementsResource();
        TieringResource tiering = new TieringResource();

        // Routes that answer only JSON (or only Prometheus text) refuse an Accept header without it
        // (406) before any work; the others choose their format from it.
        for (String jsonOnly : new String[] {Paths.HEALTH, Paths.READY, Paths.OPENAPI, Paths.DATABASES,
            Paths.DATABASE, Paths.TABLES, Paths.TABLE, Paths.PARTITIONS, Paths.PARTITION, Paths.OFFSETS, Paths.ROWS,
            Paths.TIERING, Paths.TABLE_TIERING, Paths.STATEMENTS, Paths.STATEMENT}) {
            app.before(jsonOnly, MediaTypes::requireJsonResponse);
        }
        app.before(Paths.METRICS, ctx -> MediaTypes.requireResponse(ctx, "text/plain"));

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
        app.patch(Paths.TABLE, tables::alter);
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
        app.get(Paths.STATEMENTS, statements::list);
        app.delete(Paths.STATEMENT, statements::cancel);
        app.get(Paths.TIERING, tiering::get);
        app.get(Paths.TABLE_TIERING, tiering::getTable);
    }
}
