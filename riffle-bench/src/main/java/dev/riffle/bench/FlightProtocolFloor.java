package dev.riffle.bench;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.compression.ZstdCompressionCodec;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.EncodedBatchSender;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.NoOpFlightSqlProducer;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionClosePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementRequest;
import org.apache.arrow.flight.sql.impl.FlightSql.ActionCreatePreparedStatementResult;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandPreparedStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementQuery;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The floor of a prepared point query and of a full scan over Flight SQL: a server that answers
 * {@code SELECT owner FROM ... WHERE id = ?} from memory at once, and any other query with rows it
 * holds in memory ({@link #holdScan}, read once from Fluss before the rounds), cut into as many
 * endpoints as Riffle's server cuts the scan into, with no SQL and no storage behind it. What a
 * client spends against it (bind by DoPut, GetFlightInfo, DoGet; the DoGets of a scan) is the cost
 * of the protocol and the client library on this machine, which no Flight SQL server can go below;
 * the benchmark measures it in the same run as Riffle's server, the Fluss {@code Lookuper} and the
 * in-process read.
 *
 * <pre>{@code
 * try (FlightProtocolFloor floor = FlightProtocolFloor.start(allocator)) { ... floor.location() ... }
 * }</pre>
 */
final class FlightProtocolFloor implements AutoCloseable {
    private static final String SCAN = "scan:";
    /**
     * With this system property true the floor sends its held rows as ZSTD-compressed record
     * batches (compressed once, before the rounds; the client decompresses them): what a server
     * forwarding Fluss's stored batches as they are would put on the wire.
     */
    static final String WIRE_ZSTD = "bench.floorWireZstd";
    private static final Schema PARAMETERS = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true))));
    private static final Schema ROWS = new Schema(List.of(Field.nullable("owner", ArrowType.Utf8.INSTANCE)));

    private final FlightServer server;
    private final Producer producer;

    private FlightProtocolFloor(FlightServer server, Producer producer) {
        this.server = server;
        this.producer = producer;
    }

    static FlightProtocolFloor start(BufferAllocator allocator) throws java.io.IOException {
        Producer producer = new Producer(allocator);
        FlightServer server = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), producer)
                .build().start();
        return new FlightProtocolFloor(server, producer);
    }

    /**
     * Holds {@code batches} (taken over: closed with this server) as the rows every query other
     * than the point query answers, in {@code endpoints} endpoints of every {@code endpoints}-th batch.
     */
    void holdScan(List<VectorSchemaRoot> batches, int endpoints) {
        producer.scan = List.copyOf(batches);
        producer.endpoints = endpoints;
        if (Boolean.getBoolean(WIRE_ZSTD)) {
            List<ArrowRecordBatch> compressed = new ArrayList<>();
            long bytes = 0;
            for (VectorSchemaRoot root : batches) {
                ArrowRecordBatch batch = new VectorUnloader(root, true, new ZstdCompressionCodec(), true).getRecordBatch();
                bytes += batch.computeBodyLength();
                compressed.add(batch);
            }
            System.out.printf(Locale.ROOT, "the floor sends its %d batches ZSTD-compressed (%s): %,d bytes%n",
                    compressed.size(), WIRE_ZSTD, bytes);
            producer.compressed = List.copyOf(compressed);
        }
    }

    Location location() {
        return Location.forGrpcInsecure("127.0.0.1", server.getPort());
    }

    @Override
    public void close() throws InterruptedException {
        server.shutdown();
        server.awaitTermination();
        producer.scan.forEach(VectorSchemaRoot::close);
        producer.compressed.forEach(ArrowRecordBatch::close);
    }

    /** Binds keep the key per handle; the ticket carries it; DoGet answers "owner-KEY". */
    private static final class Producer extends NoOpFlightSqlProducer {
        private final BufferAllocator allocator;
        private final Map<ByteString, Long> bound = new ConcurrentHashMap<>();
        private volatile List<VectorSchemaRoot> scan = List.of();
        private volatile int endpoints = 1;
        /** Empty unless the floor sends compressed batches; the same rows as {@link #scan}. */
        private volatile List<ArrowRecordBatch> compressed = List.of();

        Producer(BufferAllocator allocator) {
            this.allocator = requireNonNull(allocator, "allocator is null");
        }

        @Override
        public void createPreparedStatement(ActionCreatePreparedStatementRequest request, CallContext context,
                StreamListener<Result> listener) {
            ActionCreatePreparedStatementResult result = ActionCreatePreparedStatementResult.newBuilder()
                    .setPreparedStatementHandle(ByteString.copyFromUtf8("point"))
                    .setDatasetSchema(ByteString.copyFrom(ROWS.serializeAsMessage()))
                    .setParameterSchema(ByteString.copyFrom(PARAMETERS.serializeAsMessage()))
                    .build();
            listener.onNext(new Result(Any.pack(result).toByteArray()));
            listener.onCompleted();
        }

        @Override
        public void closePreparedStatement(ActionClosePreparedStatementRequest request, CallContext context,
                StreamListener<Result> listener) {
            bound.remove(request.getPreparedStatementHandle());
            listener.onCompleted();
        }

        @Override
        public Runnable acceptPutPreparedStatementQuery(CommandPreparedStatementQuery command, CallContext context,
                FlightStream stream, StreamListener<PutResult> ackStream) {
            return () -> {
                while (stream.next()) {
                    BigIntVector id = (BigIntVector) stream.getRoot().getVector(0);
                    bound.put(command.getPreparedStatementHandle(), id.get(0));
                }
                ackStream.onCompleted();
            };
        }

        @Override
        public FlightInfo getFlightInfoPreparedStatement(CommandPreparedStatementQuery command, CallContext context,
                FlightDescriptor descriptor) {
            Long key = bound.get(command.getPreparedStatementHandle());
            if (key == null) {
                throw CallStatus.INVALID_ARGUMENT.withDescription("no key bound").toRuntimeException();
            }
            Ticket ticket = new Ticket(Any.pack(TicketStatementQuery.newBuilder()
                    .setStatementHandle(ByteString.copyFromUtf8(Long.toString(key))).build()).toByteArray());
            return new FlightInfo(ROWS, descriptor, List.of(new FlightEndpoint(ticket)), -1, -1);
        }

        @Override
        public FlightInfo getFlightInfoStatement(CommandStatementQuery command, CallContext context,
                FlightDescriptor descriptor) {
            if (scan.isEmpty()) {
                throw CallStatus.INVALID_ARGUMENT.withDescription("no rows held").toRuntimeException();
            }
            List<FlightEndpoint> parts = new ArrayList<>();
            for (int part = 0; part < endpoints; part++) {
                parts.add(new FlightEndpoint(new Ticket(Any.pack(TicketStatementQuery.newBuilder()
                        .setStatementHandle(ByteString.copyFromUtf8(SCAN + part)).build()).toByteArray())));
            }
            return new FlightInfo(scan.get(0).getSchema(), descriptor, parts, -1, -1);
        }

        @Override
        public void getStreamStatement(TicketStatementQuery ticket, CallContext context,
                ServerStreamListener listener) {
            String handle = ticket.getStatementHandle().toStringUtf8();
            if (handle.startsWith(SCAN)) {
                streamHeld(Integer.parseInt(handle.substring(SCAN.length())), listener);
                return;
            }
            byte[] owner = ("owner-" + ticket.getStatementHandle().toStringUtf8()).getBytes(StandardCharsets.UTF_8);
            try (VectorSchemaRoot root = VectorSchemaRoot.create(ROWS, allocator)) {
                VarCharVector column = (VarCharVector) root.getVector(0);
                column.allocateNew();
                column.setSafe(0, owner);
                root.setRowCount(1);
                listener.start(root);
                listener.putNext();
                listener.completed();
            }
        }

        /** Every {@code endpoints}-th held batch from {@code part}, loaded into one root without a copy. */
        private void streamHeld(int part, ServerStreamListener listener) {
            if (!compressed.isEmpty()) {
                try (VectorSchemaRoot root = VectorSchemaRoot.create(scan.get(0).getSchema(), allocator)) {
                    listener.start(root);
                    for (int i = part; i < compressed.size(); i += endpoints) {
                        ArrowRecordBatch held = compressed.get(i);
                        // A second reference to the held buffers, which the sent message releases.
                        EncodedBatchSender.send(listener, new ArrowRecordBatch(held.getLength(), held.getNodes(),
                                held.getBuffers(), held.getBodyCompression(), true));
                    }
                    listener.completed();
                }
                return;
            }
            try (VectorSchemaRoot root = VectorSchemaRoot.create(scan.get(0).getSchema(), allocator)) {
                listener.start(root);
                VectorLoader loader = new VectorLoader(root);
                for (int i = part; i < scan.size(); i += endpoints) {
                    try (ArrowRecordBatch batch = new VectorUnloader(scan.get(i)).getRecordBatch()) {
                        loader.load(batch);
                    }
                    listener.putNext();
                }
                listener.completed();
            }
        }
    }
}
