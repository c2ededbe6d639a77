package dev.riffle.flight;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import dev.riffle.core.reader.TableReader;
import dev.riffle.flight.auth.PrincipalAuthenticator;
import dev.riffle.flight.metadata.CatalogMetadata;
import dev.riffle.flight.metadata.TypeInfo;
import dev.riffle.flight.statement.AcceptedCompression;
import dev.riffle.flight.statement.LookupsAhead;
import dev.riffle.flight.statement.ParameterRows;
import dev.riffle.flight.statement.PreparedStatements;
import dev.riffle.flight.statement.QueryTicket;
import dev.riffle.flight.statement.ResultStream;
import dev.riffle.flight.statement.ScanPart;
import dev.riffle.flight.statement.TicketSigner;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.principal.Credentials;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.session.Sessions;
import dev.riffle.server.sql.SqlResult;
import dev.riffle.server.sql.SqlStatements;
import dev.riffle.sql.engine.InsertValues;
import dev.riffle.sql.engine.StatementShape;
import dev.riffle.sql.statement.BucketOffsets;
import dev.riffle.sql.statement.LookedUpRows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.Criteria;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.SchemaResult;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlProducer;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionClosePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetCatalogs;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetCrossReference;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetDbSchemas;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetExportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetImportedKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetPrimaryKeys;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetSqlInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTableTypes;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetTables;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandGetXdbcTypeInfo;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementUpdate;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutUpdateResult;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Riffle's Flight SQL service: each call runs in the caller's session (its principal's own Fluss
 * connection under authentication), through the same SQL statements ({@link SqlStatements}),
 * read façade and failure classification as every other surface. Results stream as the read
 * produces them; a statement that is a bare table read sends the read's own Arrow batches.
 *
 * <p>Every {@code DoGet} ticket is self-contained and signed ({@link QueryTicket}): any instance
 * sharing the ticket key can serve it, to the principal it names. Prepared statements live in the
 * instance that prepared them.
 */
final class RiffleFlightSqlProducer implements FlightSqlProducer {
    /** How many parameter rows one bind may carry. */
    static final int MAX_PARAMETER_ROWS = 100_000;
    /** How many point queries' lookups started at GetFlightInfo may wait for their DoGet at once. */
    static final int LOOKUPS_AHEAD = 1024;
    /**
     * The most rows a lookup started at GetFlightInfo keeps for its DoGet; a larger answer (a
     * bucket-key prefix with many rows) is dropped and DoGet runs the query, so what waits for
     * DoGets stays small.
     */
    static final int ROWS_AHEAD = 100;

    private final Sessions sessions;
    private final Optional<PrincipalAuthenticator> auth;
    private final TicketSigner signer;
    private final PreparedStatements prepared;
    private final List<Location> locations;
    /** How many endpoints a bare scan of several buckets is cut into (1: never cut). */
    private final int endpointsPerScan;
    private final SqlInfoBuilder sqlInfo;
    private final BufferAllocator allocator;
    private final FlightMetrics metrics;
    /** Queries being streamed, by ticket, so CancelFlightInfo can stop them. */
    private final Map<ByteString, AtomicBoolean> running = new ConcurrentHashMap<>();
    /** Point queries' lookups started at GetFlightInfo, by ticket, for the DoGet that follows. */
    private final LookupsAhead lookupsAhead = new LookupsAhead(LOOKUPS_AHEAD, Duration.ofSeconds(10));

    RiffleFlightSqlProducer(Sessions sessions, Optional<PrincipalAuthenticator> auth, TicketSigner signer,
            List<Location> locations, int endpointsPerScan, BufferAllocator allocator, FlightMetrics metrics) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.auth = requireNonNull(auth, "auth is null");
        this.signer = requireNonNull(signer, "signer is null");
        this.locations = List.copyOf(locations);
        this.endpointsPerScan = endpointsPerScan;
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.prepared = new PreparedStatements(10_000, Duration.ofHours(1));
        this.sqlInfo = SqlInfos.builder();
    }

    // ---- what reaches the server before Flight SQL's dispatch

    /**
     * Flight SQL's dispatch, after checking what it would fail on as an internal error: a path
     * descriptor (this server takes Flight SQL commands), bytes that are no protobuf command.
     */
    @Override
    public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
        return FlightSqlProducer.super.getFlightInfo(context, command(descriptor, "GetFlightInfo"));
    }

    @Override
    public SchemaResult getSchema(CallContext context, FlightDescriptor descriptor) {
        return FlightSqlProducer.super.getSchema(context, command(descriptor, "GetSchema"));
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        try {
            Any.parseFrom(ticket.getBytes());
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            listener.error(CallStatus.INVALID_ARGUMENT.withDescription("The ticket (" + ticket.getBytes().length
                    + " bytes) is not one this server issued: a DoGet takes the ticket of an endpoint of a FlightInfo"
                    + " (GetFlightInfo of a Flight SQL command)").toRuntimeException());
            return;
        }
        FlightSqlProducer.super.getStream(context, ticket, listener);
    }

    @Override
    public Runnable acceptPut(CallContext context, org.apache.arrow.flight.FlightStream stream,
            StreamListener<PutResult> ack) {
        command(stream.getDescriptor(), "DoPut");
        return FlightSqlProducer.super.acceptPut(context, stream, ack);
    }

    /** {@code descriptor}, when it carries a command that parses as one; else INVALID_ARGUMENT naming what it got. */
    private static FlightDescriptor command(FlightDescriptor descriptor, String call) {
        if (!descriptor.isCommand()) {
            throw CallStatus.INVALID_ARGUMENT.withDescription(call + " got a path descriptor " + descriptor.getPath()
                    + "; Riffle's Flight SQL server takes Flight SQL commands (to read a table, send the query"
                    + " SELECT * FROM " + String.join(".", descriptor.getPath()) + " as CommandStatementQuery)")
                    .toRuntimeException();
        }
        try {
            Any.parseFrom(descriptor.getCommand());
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw CallStatus.INVALID_ARGUMENT.withDescription(call + " got a command of "
                    + descriptor.getCommand().length + " bytes that is no Flight SQL command (a protobuf Any of one of"
                    + " Flight SQL's messages)").toRuntimeException();
        }
        return descriptor;
    }

    // ---- statements

    @Override
    public FlightInfo getFlightInfoStatement(CommandStatementQuery command, CallContext context,
            FlightDescriptor descriptor) {
        String sql = command.getQuery();
        return call("GetFlightInfo(statement)", Optional.of(sql), () -> {
            StatementShape shape = shape(context, sql);
            return info(context, shape, descriptor, sql, List.of());
        });
    }

    @Override
    public SchemaResult getSchemaStatement(CommandStatementQuery command, CallContext context,
            FlightDescriptor descriptor) {
        String sql = command.getQuery();
        return call("GetSchema(statement)", Optional.of(sql), () -> new SchemaResult(shape(context, sql).rows()));
    }

    @Override
    public void getStreamStatement(TicketStatementQuery ticket, CallContext context, ServerStreamListener listener) {
        ByteString key = ticket.getStatementHandle();
        QueryTicket query;
        try {
            query = QueryTicket.decode(key.toByteArray(), signer);
            if (!query.principal().equals(principal(context))) {
                throw CallStatus.UNAUTHORIZED.withDescription("The ticket was issued to another user")
                        .toRuntimeException();
            }
        } catch (RuntimeException e) {
            listener.error(FlightErrors.toFlight(e, Optional.empty()));
            return;
        }
        stream(context, query.sql(), query.parameters(), query.part().map(ScanPart::offsets), key, listener);
    }

    @Override
    public void createPreparedStatement(ActionCreatePreparedStatementRequest request, CallContext context,
            StreamListener<Result> listener) {
        String sql = request.getQuery();
        try {
            ActionCreatePreparedStatementResult result = call("CreatePreparedStatement", Optional.of(sql), () -> {
                StatementShape shape = shape(context, sql);
                byte[] handle = prepared.add(principal(context), sql, shape);
                return ActionCreatePreparedStatementResult.newBuilder()
                        .setPreparedStatementHandle(ByteString.copyFrom(handle))
                        .setDatasetSchema(ByteString.copyFrom(shape.rows().serializeAsMessage()))
                        .setParameterSchema(ByteString.copyFrom(shape.parameters().serializeAsMessage()))
                        .build();
            });
            listener.onNext(new Result(Any.pack(result).toByteArray()));
            listener.onCompleted();
        } catch (RuntimeException e) {
            listener.onError(FlightErrors.toFlight(e, Optional.of(sql)));
        }
    }

    @Override
    public void closePreparedStatement(ActionClosePreparedStatementRequest request, CallContext context,
            StreamListener<Result> listener) {
        prepared.remove(request.getPreparedStatementHandle().toByteArray(), principal(context));
        listener.onCompleted();
    }

    @Override
    public FlightInfo getFlightInfoPreparedStatement(CommandPreparedStatementQuery command, CallContext context,
            FlightDescriptor descriptor) {
        PreparedStatements.Prepared statement = preparedOf(command.getPreparedStatementHandle(), context);
        return call("GetFlightInfo(prepared)", Optional.of(statement.sql()), () -> info(context, statement.shape(),
                descriptor, statement.sql(), oneRow(statement)));
    }

    @Override
    public SchemaResult getSchemaPreparedStatement(CommandPreparedStatementQuery command, CallContext context,
            FlightDescriptor descriptor) {
        return new SchemaResult(preparedOf(command.getPreparedStatementHandle(), context).shape().rows());
    }

    @Override
    public void getStreamPreparedStatement(CommandPreparedStatementQuery command, CallContext context,
            ServerStreamListener listener) {
        PreparedStatements.Prepared statement;
        try {
            statement = preparedOf(command.getPreparedStatementHandle(), context);
        } catch (RuntimeException e) {
            listener.error(FlightErrors.toFlight(e, Optional.empty()));
            return;
        }
        stream(context, statement.sql(), oneRow(statement), Optional.empty(), command.getPreparedStatementHandle(),
                listener);
    }

    @Override
    public Runnable acceptPutPreparedStatementQuery(CommandPreparedStatementQuery command, CallContext context,
            FlightStream stream, StreamListener<PutResult> ack) {
        return () -> {
            long started = System.nanoTime();
            try {
                PreparedStatements.Prepared statement = preparedOf(command.getPreparedStatementHandle(), context);
                List<List<Object>> rows = ParameterRows.read(stream, statement.shape().parameters(), MAX_PARAMETER_ROWS);
                prepared.bind(command.getPreparedStatementHandle().toByteArray(), principal(context), rows);
                metrics.record("DoPut(bind)", started, true, 0);
                ack.onCompleted();
            } catch (RuntimeException e) {
                metrics.record("DoPut(bind)", started, false, 0);
                ack.onError(FlightErrors.toFlight(e, Optional.empty()));
            }
        };
    }

    @Override
    public Runnable acceptPutStatement(CommandStatementUpdate command, CallContext context, FlightStream stream,
            StreamListener<PutResult> ack) {
        String sql = command.getQuery();
        return () -> update(context, sql, List.of(List.of()), ack);
    }

    @Override
    public Runnable acceptPutPreparedStatementUpdate(CommandPreparedStatementUpdate command, CallContext context,
            FlightStream stream, StreamListener<PutResult> ack) {
        return () -> {
            PreparedStatements.Prepared statement;
            List<List<Object>> rows;
            try {
                statement = preparedOf(command.getPreparedStatementHandle(), context);
                Optional<InsertValues> insert = statement.shape().parameters().getFields().isEmpty() ? Optional.empty()
                        : InsertValues.match(statement.sql());
                if (insert.isPresent()) {
                    // Many rows of parameters to one INSERT: written straight from the Arrow batches.
                    try (RequestContext request = open(context, "Flight SQL insert")) {
                        long written = metrics.time("DoPut(insert)", () -> BulkIngest.insert(request, insert.get(),
                                stream));
                        ackCount(ack, written);
                    }
                    return;
                }
                rows = ParameterRows.read(stream, statement.shape().parameters(), MAX_PARAMETER_ROWS);
            } catch (RuntimeException e) {
                ack.onError(FlightErrors.toFlight(e, Optional.empty()));
                return;
            }
            if (rows.isEmpty()) {
                rows = statement.parameterRows().isEmpty() ? List.of(List.of()) : statement.parameterRows();
            }
            update(context, statement.sql(), rows, ack);
        };
    }

    @Override
    public Runnable acceptPutStatementBulkIngest(CommandStatementIngest command, CallContext context,
            FlightStream stream, StreamListener<PutResult> ack) {
        return () -> {
            try (RequestContext request = open(context, "Flight SQL bulk ingest")) {
                long rows = metrics.time("BulkIngest", () -> BulkIngest.run(request, command, stream));
                ackCount(ack, rows);
            } catch (RuntimeException e) {
                ack.onError(FlightErrors.toFlight(e, Optional.empty()));
            }
        };
    }

    @Override
    public void cancelFlightInfo(CancelFlightInfoRequest request, CallContext context,
            StreamListener<CancelStatus> listener) {
        CancelStatus status = CancelStatus.NOT_CANCELLABLE;
        for (FlightEndpoint endpoint : request.getInfo().getEndpoints()) {
            ByteString handle = statementHandle(endpoint.getTicket());
            AtomicBoolean flag = handle == null ? null : running.get(handle);
            if (handle != null && lookupsAhead.discard(handle)) {
                status = CancelStatus.CANCELLED; // its answer is dropped; DoGet would run the query anew
            }
            if (flag != null) {
                flag.set(true);
                status = CancelStatus.CANCELLED;
            } else if (status == CancelStatus.NOT_CANCELLABLE && handle != null) {
                status = CancelStatus.CANCELLED; // already finished or not started: nothing left to stop
            }
        }
        listener.onNext(status);
        listener.onCompleted();
    }

    // ---- metadata

    @Override
    public FlightInfo getFlightInfoSqlInfo(CommandGetSqlInfo request, CallContext context, FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_SQL_INFO_SCHEMA);
    }

    @Override
    public void getStreamSqlInfo(CommandGetSqlInfo command, CallContext context, ServerStreamListener listener) {
        sqlInfo.send(command.getInfoList(), listener);
    }

    @Override
    public FlightInfo getFlightInfoTypeInfo(CommandGetXdbcTypeInfo request, CallContext context,
            FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_TYPE_INFO_SCHEMA);
    }

    @Override
    public void getStreamTypeInfo(CommandGetXdbcTypeInfo request, CallContext context, ServerStreamListener listener) {
        sendMetadata(context, listener, call -> TypeInfo.of(
                present(request.hasDataType(), request.getDataType()), call.allocator()));
    }

    @Override
    public FlightInfo getFlightInfoCatalogs(CommandGetCatalogs request, CallContext context,
            FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_CATALOGS_SCHEMA);
    }

    @Override
    public void getStreamCatalogs(CallContext context, ServerStreamListener listener) {
        sendMetadata(context, listener, request -> CatalogMetadata.catalogs(request.allocator()));
    }

    @Override
    public FlightInfo getFlightInfoSchemas(CommandGetDbSchemas request, CallContext context,
            FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_SCHEMAS_SCHEMA);
    }

    @Override
    public void getStreamSchemas(CommandGetDbSchemas command, CallContext context, ServerStreamListener listener) {
        sendMetadata(context, listener, request -> CatalogMetadata.schemas(request,
                present(command.hasCatalog(), command.getCatalog()),
                present(command.hasDbSchemaFilterPattern(), command.getDbSchemaFilterPattern())));
    }

    @Override
    public FlightInfo getFlightInfoTables(CommandGetTables request, CallContext context, FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor,
                request.getIncludeSchema() ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA);
    }

    @Override
    public void getStreamTables(CommandGetTables command, CallContext context, ServerStreamListener listener) {
        sendMetadata(context, listener, request -> CatalogMetadata.tables(request,
                present(command.hasCatalog(), command.getCatalog()),
                present(command.hasDbSchemaFilterPattern(), command.getDbSchemaFilterPattern()),
                present(command.hasTableNameFilterPattern(), command.getTableNameFilterPattern()),
                command.getTableTypesList(), command.getIncludeSchema()));
    }

    @Override
    public FlightInfo getFlightInfoTableTypes(CommandGetTableTypes request, CallContext context,
            FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_TABLE_TYPES_SCHEMA);
    }

    @Override
    public void getStreamTableTypes(CallContext context, ServerStreamListener listener) {
        sendMetadata(context, listener, request -> CatalogMetadata.tableTypes(request.allocator()));
    }

    @Override
    public FlightInfo getFlightInfoPrimaryKeys(CommandGetPrimaryKeys request, CallContext context,
            FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_PRIMARY_KEYS_SCHEMA);
    }

    @Override
    public void getStreamPrimaryKeys(CommandGetPrimaryKeys command, CallContext context,
            ServerStreamListener listener) {
        sendMetadata(context, listener, request -> CatalogMetadata.primaryKeys(request,
                present(command.hasCatalog(), command.getCatalog()),
                present(command.hasDbSchema(), command.getDbSchema()), command.getTable()));
    }

    @Override
    public FlightInfo getFlightInfoExportedKeys(CommandGetExportedKeys request, CallContext context,
            FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_EXPORTED_KEYS_SCHEMA);
    }

    @Override
    public FlightInfo getFlightInfoImportedKeys(CommandGetImportedKeys request, CallContext context,
            FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_IMPORTED_KEYS_SCHEMA);
    }

    @Override
    public FlightInfo getFlightInfoCrossReference(CommandGetCrossReference request, CallContext context,
            FlightDescriptor descriptor) {
        return metadataInfo(request, descriptor, Schemas.GET_CROSS_REFERENCE_SCHEMA);
    }

    @Override
    public void getStreamExportedKeys(CommandGetExportedKeys command, CallContext context,
            ServerStreamListener listener) {
        sendMetadata(context, listener, request -> CatalogMetadata.noForeignKeys(Schemas.GET_EXPORTED_KEYS_SCHEMA,
                request.allocator()));
    }

    @Override
    public void getStreamImportedKeys(CommandGetImportedKeys command, CallContext context,
            ServerStreamListener listener) {
        sendMetadata(context, listener, request -> CatalogMetadata.noForeignKeys(Schemas.GET_IMPORTED_KEYS_SCHEMA,
                request.allocator()));
    }

    @Override
    public void getStreamCrossReference(CommandGetCrossReference command, CallContext context,
            ServerStreamListener listener) {
        sendMetadata(context, listener, request -> CatalogMetadata.noForeignKeys(Schemas.GET_CROSS_REFERENCE_SCHEMA,
                request.allocator()));
    }

    @Override
    public void listFlights(CallContext context, Criteria criteria, StreamListener<FlightInfo> listener) {
        listener.onCompleted(); // no standing flights: every read is a statement
    }

    @Override
    public void close() {}

    // ---- helpers

    /** A protobuf field that may be absent, as an Optional. */
    private static <T> Optional<T> present(boolean has, T value) {
        return has ? Optional.of(value) : Optional.empty();
    }

    /** The user a call runs as ("" without authentication). */
    private String principal(CallContext context) {
        return context.peerIdentity() == null ? "" : context.peerIdentity();
    }

    private RequestContext open(CallContext context, String purpose) {
        Optional<Credentials> credentials = Optional.empty();
        if (sessions.authenticates()) {
            credentials = auth.flatMap(a -> a.credentials(principal(context)));
            if (credentials.isEmpty()) {
                throw new ServiceException(FailureKind.UNAUTHENTICATED, "unauthenticated",
                        "Authenticate with a Fluss user and password");
            }
        }
        RequestContext request = sessions.open(credentials, purpose);
        // The call's own deadline (the client's timeout) bounds its statements, and a client that
        // cancels the call or goes away stops them.
        io.grpc.Deadline deadline = io.grpc.Context.current().getDeadline();
        if (deadline != null) {
            request.limitTime(java.time.Duration.ofMillis(Math.max(0, deadline.timeRemaining(
                    java.util.concurrent.TimeUnit.MILLISECONDS))));
        }
        request.watchClient(context::isCancelled);
        return request;
    }

    private StatementShape shape(CallContext context, String sql) {
        try (RequestContext request = open(context, "Flight SQL prepare")) {
            return SqlStatements.shape(request, sql);
        } catch (java.sql.SQLException e) {
            throw new SqlFailure(e);
        }
    }

    private PreparedStatements.Prepared preparedOf(ByteString handle, CallContext context) {
        return prepared.get(handle.toByteArray(), principal(context)).orElseThrow(() -> CallStatus.NOT_FOUND
                .withDescription("No prepared statement with this handle (closed, expired, or prepared on another"
                        + " server): prepare it again").toRuntimeException());
    }

    /** The one parameter row a query runs with (none bound: no parameters). */
    private static List<Object> oneRow(PreparedStatements.Prepared statement) {
        List<List<Object>> rows = statement.parameterRows();
        if (rows.size() > 1) {
            throw CallStatus.INVALID_ARGUMENT.withDescription("A query runs with one row of parameters; "
                    + rows.size() + " were bound").toRuntimeException();
        }
        return rows.isEmpty() ? List.of() : rows.get(0);
    }

    /**
     * The FlightInfo of a query: one endpoint, or for a bare log or changelog read of several
     * buckets, up to {@link #endpointsPerScan} endpoints that each read some buckets up to the stop
     * offsets captured now; each endpoint names one advertised location (dealt in turn).
     */
    private FlightInfo info(CallContext context, StatementShape shape, FlightDescriptor descriptor, String sql,
            List<Object> parameters) {
        if (shape.query() && locations.isEmpty()) {
            // First, before anything else is spent on the call: its lookup waits out Fluss's batch
            // window meanwhile. (With advertised locations the DoGet may go to another instance.)
            Optional<FlightInfo> pointQuery = lookUpAhead(context, shape, descriptor, sql, parameters);
            if (pointQuery.isPresent()) {
                return pointQuery.get();
            }
        }
        List<Optional<ScanPart>> parts = List.of(Optional.empty());
        if (shape.query() && endpointsPerScan > 1) {
            Optional<BucketOffsets> offsets;
            try (RequestContext request = open(context, "Flight SQL plan")) {
                offsets = SqlStatements.offsets(request, sql, parameters);
            } catch (java.sql.SQLException e) {
                throw new SqlFailure(e);
            }
            if (offsets.isPresent() && offsets.get().stops().size() > 1) {
                parts = ScanPart.split(offsets.get(), endpointsPerScan).stream().map(Optional::of).toList();
            }
        }
        List<FlightEndpoint> endpoints = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            QueryTicket query = new QueryTicket(principal(context), sql, parameters, parts.get(i));
            Location[] where = locations.isEmpty() ? new Location[0]
                    : new Location[] {locations.get(i % locations.size())};
            endpoints.add(endpoint(ByteString.copyFrom(query.encode(signer)), where));
        }
        return new FlightInfo(shape.rows(), descriptor, endpoints, -1, -1);
    }

    /** The endpoint of the query ticket {@code handle}, at {@code where} (nowhere: where the client asked). */
    private static FlightEndpoint endpoint(ByteString handle, Location... where) {
        return new FlightEndpoint(new Ticket(Any.pack(TicketStatementQuery.newBuilder().setStatementHandle(handle)
                .build()).toByteArray()), where);
    }

    /**
     * The FlightInfo of a point query ({@link SqlStatements#lookUp}: a key lookup this session ran
     * before), one endpoint, its lookup started for the endpoint's DoGet to take
     * ({@link LookupsAhead}). Empty for anything else, and when anything goes wrong here: the
     * statement then gets its FlightInfo as any other, and DoGet runs it (and reports what is
     * wrong); so does a lookup that fails.
     */
    private Optional<FlightInfo> lookUpAhead(CallContext context, StatementShape shape, FlightDescriptor descriptor,
            String sql, List<Object> parameters) {
        if (!lookupsAhead.hasRoom()) {
            return Optional.empty(); // every place is taken: DoGet runs the query, Fluss sees one lookup
        }
        RequestContext request;
        try {
            request = open(context, "Flight SQL lookup");
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        Optional<CompletableFuture<LookedUpRows>> answer;
        try {
            answer = SqlStatements.lookUp(request, sql, parameters);
        } catch (RuntimeException e) {
            answer = Optional.empty();
        }
        if (answer.isEmpty()) {
            request.close();
            return Optional.empty();
        }
        CompletableFuture<LookedUpRows> found = answer.get();
        ByteString handle;
        try {
            handle = ByteString.copyFrom(new QueryTicket(principal(context), sql, parameters, Optional.empty())
                    .encode(signer));
        } catch (RuntimeException e) {
            found.whenComplete((rows, failure) -> request.close());
            throw e; // as the statement's FlightInfo would fail without the lookup
        }
        lookupsAhead.offer(handle, found);
        found.whenComplete((rows, failure) -> {
            try {
                if (failure != null || rows.rows().size() > ROWS_AHEAD) {
                    lookupsAhead.discard(handle, found);
                }
            } finally {
                request.close();
            }
        });
        return Optional.of(new FlightInfo(shape.rows(), descriptor, List.of(endpoint(handle)), -1, -1));
    }

    private FlightInfo metadataInfo(Message command, FlightDescriptor descriptor, Schema schema) {
        Ticket ticket = new Ticket(Any.pack(command).toByteArray());
        return new FlightInfo(schema, descriptor, List.of(new FlightEndpoint(ticket, locations.toArray(Location[]::new))),
                -1, -1);
    }

    private void stream(CallContext context, String sql, List<Object> parameters,
            Optional<BucketOffsets> part, ByteString key, ServerStreamListener listener) {
        AtomicBoolean cancelled = new AtomicBoolean();
        running.put(key, cancelled);
        long started = System.nanoTime();
        Optional<CompletableFuture<LookedUpRows>> ahead = part.isEmpty() ? lookupsAhead.take(key) : Optional.empty();
        String command = ahead.isPresent() ? "DoGet(looked up at GetFlightInfo)" : "DoGet";
        try (RequestContext request = open(context, "Flight SQL DoGet")) {
            request.watchClient(cancelled::get); // CancelFlightInfo
            Optional<LookedUpRows> found = ahead.isPresent() ? foundAhead(request, ahead.get()) : Optional.empty();
            if (found.isPresent()) {
                try (TableReader reader = found.get().reader(request.allocator())) {
                    ResultStream.Sent sent = ResultStream.send(reader, listener, cancelled::get,
                            request.limits().scanTimeout(), AcceptedCompression.of(context));
                    metrics.record(command, started, true, sent.rows());
                }
                return;
            }
            command = "DoGet";
            SqlResult result;
            try {
                result = SqlStatements.run(request, sql, parameters, part);
            } catch (java.sql.SQLException e) {
                throw new SqlFailure(e);
            }
            try (SqlResult answer = result) {
                if (!(answer instanceof SqlResult.Rows rows)) {
                    throw CallStatus.INVALID_ARGUMENT.withDescription("The statement answers no rows; send it as an"
                            + " update (executeUpdate, CommandStatementUpdate)").toRuntimeException();
                }
                ResultStream.Sent sent = ResultStream.send(rows.reader(), listener, cancelled::get,
                        request.limits().scanTimeout(), AcceptedCompression.of(context));
                metrics.record("DoGet", started, true, sent.rows());
                metrics.storedBatches(sent.storedBatches());
            }
        } catch (RuntimeException e) {
            metrics.record(command, started, false, 0);
            listener.error(FlightErrors.toFlight(unwrap(e), Optional.of(sql)));
        } finally {
            running.remove(key);
        }
    }

    /**
     * What a lookup started at GetFlightInfo found; empty when it failed, for DoGet to run the query
     * (and report what the query meets then). A lookup that takes longer than the request's timeout
     * fails the DoGet, as the query would.
     */
    private static Optional<LookedUpRows> foundAhead(RequestContext request, CompletableFuture<LookedUpRows> lookup) {
        try {
            return Optional.of(request.await(lookup, "The key lookup"));
        } catch (RuntimeException e) {
            if (lookup.isCancelled() || !lookup.isCompletedExceptionally()) {
                throw e; // timed out (await cancelled it) or interrupted
            }
            return Optional.empty();
        }
    }

    private void update(CallContext context, String sql, List<List<Object>> rows, StreamListener<PutResult> ack) {
        long started = System.nanoTime();
        try (RequestContext request = open(context, "Flight SQL update")) {
            long total = 0;
            for (List<Object> parameters : rows) {
                SqlResult result;
                try {
                    result = SqlStatements.run(request, sql, parameters);
                } catch (java.sql.SQLException e) {
                    throw new SqlFailure(e);
                }
                try (SqlResult answer = result) {
                    if (!(answer instanceof SqlResult.Updated updated)) {
                        throw CallStatus.INVALID_ARGUMENT.withDescription("The statement answers rows; run it as a"
                                + " query (executeQuery, CommandStatementQuery)").toRuntimeException();
                    }
                    total += Math.max(0, updated.count());
                }
            }
            metrics.record("DoPut(update)", started, true, total);
            ackCount(ack, total);
        } catch (RuntimeException e) {
            metrics.record("DoPut(update)", started, false, 0);
            ack.onError(FlightErrors.toFlight(unwrap(e), Optional.of(sql)));
        }
    }

    private void ackCount(StreamListener<PutResult> ack, long count) {
        DoPutUpdateResult result = DoPutUpdateResult.newBuilder().setRecordCount(count).build();
        byte[] bytes = result.toByteArray();
        try (ArrowBuf buffer = allocator.buffer(bytes.length)) {
            buffer.writeBytes(bytes);
            ack.onNext(PutResult.metadata(buffer));
        }
        ack.onCompleted();
    }

    private void sendMetadata(CallContext context, ServerStreamListener listener,
            Function<RequestContext, VectorSchemaRoot> rows) {
        long started = System.nanoTime();
        try (RequestContext request = open(context, "Flight SQL metadata"); VectorSchemaRoot root = rows.apply(request)) {
            listener.start(root);
            listener.putNext();
            listener.completed();
            metrics.record("metadata", started, true, root.getRowCount());
        } catch (RuntimeException e) {
            metrics.record("metadata", started, false, 0);
            listener.error(FlightErrors.toFlight(e, Optional.empty()));
        }
    }

    private <T> T call(String what, Optional<String> sql, java.util.function.Supplier<T> body) {
        long started = System.nanoTime();
        try {
            T result = body.get();
            metrics.record(what, started, true, 0);
            return result;
        } catch (RuntimeException e) {
            metrics.record(what, started, false, 0);
            throw FlightErrors.toFlight(unwrap(e), sql);
        }
    }

    private static Throwable unwrap(RuntimeException e) {
        return e instanceof SqlFailure failure ? failure.getCause() : e;
    }

    private static ByteString statementHandle(Ticket ticket) {
        try {
            Any any = Any.parseFrom(ticket.getBytes());
            return any.is(TicketStatementQuery.class) ? any.unpack(TicketStatementQuery.class).getStatementHandle()
                    : null;
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            return null;
        }
    }

    /** A SQLException carried through a lambda. */
    private static final class SqlFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SqlFailure(java.sql.SQLException cause) {
            super(cause.getMessage(), cause);
        }
    }
}
