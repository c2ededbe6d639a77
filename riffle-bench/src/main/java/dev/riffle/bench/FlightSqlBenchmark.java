package dev.riffle.bench;

import com.google.protobuf.Any;
import dev.riffle.core.Riffle;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.flight.FlightSqlServer;
import dev.riffle.flight.statement.AcceptedCompression;
import dev.riffle.local.LocalCluster;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;

/**
 * Issue 15's benchmark: Riffle's Flight SQL server against the in-process baselines, each client
 * in its own JVM, alternating, every round printed, medians compared:
 * <ul>
 *   <li>full scan of a log table over Flight SQL (its endpoints fetched at once) ÷ Riffle's
 *       in-process bounded read of the same table, rows/s: target &gt;= 0.8x;</li>
 *   <li>prepared point query p50 over Flight SQL ÷ the Fluss {@code Lookuper}'s p50 (and, to tell
 *       the protocol's share from Riffle's, the same client against {@link FlightProtocolFloor}),
 *       both with a 1 ms lookup batch timeout (the server's default): target &lt;= 2x;</li>
 *   <li>bulk ingest over Flight SQL ({@code CommandStatementIngest}, batches of 65,536) ÷ the Fluss
 *       {@code AppendWriter}, rows/s: target &gt;= 0.8x.</li>
 * </ul>
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B -pl riffle-bench exec:exec -Dbench.class=FlightSqlBenchmark -Dbench.args="5000000 3"
 * </pre>
 * Arguments: scan rows (default 5,000,000), rounds (default 3), and optionally which parts to run
 * ({@code scan,lookup,ingest}, the default).
 * {@code -Dbench.scanWarmups=N} sets how many unmeasured scans warm both servers first (default
 * {@value #SERVER_WARMUP_ROUNDS}), and {@code -Dbench.eventsCompression=NONE} (or {@code LZ4_FRAME})
 * the scanned table's log compression, to tell the JIT's and decompression's shares of a scan.
 * {@code -Dbench.floorWireZstd=true} makes the floor send its rows as ZSTD-compressed batches, as a
 * server forwarding Fluss's stored batches would (see {@link FlightProtocolFloor}).
 *
 * <p>Before the measured point-query rounds, unmeasured ones warm the two servers (Riffle's and the
 * floor's, both in this JVM) until Riffle's p50 changes by less than 5% from one to the next (at
 * most {@value #SERVER_WARMUP_ROUNDS}), as {@link HttpBenchmark} warms its gateway: the servers'
 * JIT settles over the first rounds (a point query's p50 fell from about 3x the {@code Lookuper}'s
 * in the first round to about 2x by the third, 2026-12-04), and a server is measured as it runs
 * once it has served for a while. Every client runs in a fresh JVM, warmed by {@value #WARMUP}
 * queries of its own.
 */
public final class FlightSqlBenchmark {
    private static final int BUCKETS = BenchTables.BUCKETS;
    private static final int KEYS = 100_000;
    private static final int LOOKUPS = 2_000;
    private static final int WARMUP = 500;
    /** At most this many unmeasured point-query rounds warm the servers (fewer once the p50 settles). */
    private static final int SERVER_WARMUP_ROUNDS = 4;
    private static final int INGEST_ROWS = 1_000_000;
    private static final int INGEST_BATCH = 65_536;

    private FlightSqlBenchmark() {}

    /**
     * What the scan's client names in {@link AcceptedCompression#HEADER}: {@code zstd} (it has
     * {@code arrow-compression}), so Riffle sends it the stored batches as they are;
     * {@code -Dbench.flightAccept=} (empty) measures a client that does not say so.
     */
    private static final String ACCEPTED_COMPRESSION = System.getProperty("bench.flightAccept", "zstd");

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].startsWith("child-")) {
            child(args);
            return;
        }
        ScanBenchArgs parsed = ScanBenchArgs.parse(args, "scan,lookup,ingest");
        int rows = parsed.rows();
        int rounds = parsed.rounds();
        List<String> parts = parsed.parts();
        Path dataDir = Files.createTempDirectory("riffle-flight-bench");
        SimpleMeterRegistry serverMetrics = new SimpleMeterRegistry();
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false).start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                FlightSqlServer flight = FlightSqlServer.builder().clientConfig(cluster.clientConfig())
                        .host("127.0.0.1").port(0).meterRegistry(serverMetrics).start();
                BufferAllocator floorAllocator = new RootAllocator();
                FlightProtocolFloor floor = FlightProtocolFloor.start(floorAllocator)) {
            BenchTables.create(connection, rows, KEYS);
            if (parts.contains("scan")) {
                floor.holdScan(heldScan(connection, floorAllocator), BUCKETS);
            }
            String location = flight.location().getUri().toString();
            String bootstrap = cluster.bootstrapServers();
            System.out.printf(Locale.ROOT, "Flight SQL vs in-process, %,d scan rows in %d buckets, %,d keys, %,d ingest"
                    + " rows; each client in its own JVM%n", rows, BUCKETS, KEYS, INGEST_ROWS);
            List<Double> scanFlight = new ArrayList<>();
            List<Double> scanRiffle = new ArrayList<>();
            List<Double> scanFloor = new ArrayList<>();
            List<Double> lookupFlight = new ArrayList<>();
            List<Double> lookupJava = new ArrayList<>();
            List<Double> lookupFloor = new ArrayList<>();
            List<Double> ingestFlight = new ArrayList<>();
            List<Double> ingestJava = new ArrayList<>();
            if (parts.contains("scan")) {
                warmUpForScans(bootstrap, location, floor.location().getUri().toString(), rows);
            }
            if (parts.contains("lookup")) {
                warmUpForLookups(bootstrap, location, floor.location().getUri().toString(), rows);
            }
            for (int round = 1; round <= rounds; round++) {
                if (parts.contains("scan")) {
                    scanRiffle.add(run("child-scan-riffle", bootstrap, location, rows, round));
                    serverMetrics.clear();
                    scanFlight.add(run("child-scan-flight", bootstrap, location, rows, round));
                    printServerTimes(serverMetrics);
                    Counter stored = serverMetrics.find("riffle_flight_stored_batches").counter();
                    System.out.printf(Locale.ROOT, "    batches Riffle sent as Fluss stored them (the client accepts"
                            + " '%s'): %.0f%n", ACCEPTED_COMPRESSION, stored == null ? 0.0 : stored.count());
                    scanFloor.add(run("child-scan-flight", bootstrap, floor.location().getUri().toString(), rows, round));
                    System.out.printf(Locale.ROOT, "round %d: scan %.2fx (protocol floor %.2fx; Flight SQL / floor %.2fx)%n",
                            round, scanFlight.get(round - 1) / scanRiffle.get(round - 1),
                            scanFloor.get(round - 1) / scanRiffle.get(round - 1),
                            scanFlight.get(round - 1) / scanFloor.get(round - 1));
                }
                if (parts.contains("lookup")) {
                    lookupJava.add(run("child-lookup-java", bootstrap, location, rows, round));
                    lookupFloor.add(run("child-lookup-flight", bootstrap, floor.location().getUri().toString(), rows,
                            round));
                    serverMetrics.clear();
                    lookupFlight.add(run("child-lookup-flight", bootstrap, location, rows, round));
                    printServerTimes(serverMetrics);
                    System.out.printf(Locale.ROOT, "round %d: point query p50 %.2fx (protocol floor %.2fx)%n", round,
                            lookupFlight.get(round - 1) / lookupJava.get(round - 1),
                            lookupFloor.get(round - 1) / lookupJava.get(round - 1));
                }
                if (parts.contains("ingest")) {
                    ingestJava.add(run("child-ingest-java", bootstrap, location, rows, round));
                    ingestFlight.add(run("child-ingest-flight", bootstrap, location, rows, round));
                    System.out.printf(Locale.ROOT, "round %d: ingest %.2fx%n", round,
                            ingestFlight.get(round - 1) / ingestJava.get(round - 1));
                }
            }
            if (parts.contains("scan")) {
                double scan = Median.of(scanFlight) / Median.of(scanRiffle);
                System.out.printf(Locale.ROOT, "median scan: Flight SQL %.2f M rows/s, in-process %.2f M rows/s: %.2fx"
                        + " (target >= 0.8x): %s%n", Median.of(scanFlight) / 1e6, Median.of(scanRiffle) / 1e6, scan,
                        scan >= 0.8 ? "met" : "NOT met");
                System.out.printf(Locale.ROOT, "median of Flight SQL / floor per round: %.2fx (issue 43: >= 0.9x)%n",
                        Median.of(java.util.stream.IntStream.range(0, scanFlight.size())
                                .mapToObj(r -> scanFlight.get(r) / scanFloor.get(r)).toList()));
                System.out.printf(Locale.ROOT, "median scan against a Flight SQL server that streams the same rows from"
                        + " memory (the protocol's floor with this client): %.2f M rows/s: %.2fx the in-process read%n",
                        Median.of(scanFloor) / 1e6, Median.of(scanFloor) / Median.of(scanRiffle));
            }
            if (parts.contains("lookup")) {
                double lookup = Median.of(lookupFlight) / Median.of(lookupJava);
                System.out.printf(Locale.ROOT, "median point query p50: Flight SQL %.3f ms, Lookuper %.3f ms: %.2fx"
                        + " (target <= 2x): %s%n", Median.of(lookupFlight), Median.of(lookupJava), lookup,
                        lookup <= 2 ? "met" : "NOT met");
                System.out.printf(Locale.ROOT, "median point query p50 against a Flight SQL server that answers from"
                        + " memory (the protocol's floor with this client): %.3f ms: %.2fx the Lookuper%n",
                        Median.of(lookupFloor), Median.of(lookupFloor) / Median.of(lookupJava));
            }
            if (parts.contains("ingest")) {
                double ingest = Median.of(ingestFlight) / Median.of(ingestJava);
                System.out.printf(Locale.ROOT, "median ingest: Flight SQL %.2f M rows/s, AppendWriter %.2f M rows/s:"
                        + " %.2fx (target >= 0.8x): %s%n", Median.of(ingestFlight) / 1e6, Median.of(ingestJava) / 1e6,
                        ingest, ingest >= 0.8 ? "met" : "NOT met");
            }
        }
    }

    /** The scanned table's rows, read once in this JVM and kept as Arrow batches for the protocol floor. */
    private static List<VectorSchemaRoot> heldScan(Connection connection, BufferAllocator allocator) throws Exception {
        List<VectorSchemaRoot> held = new ArrayList<>();
        // Read with the floor's allocator: batches move between allocators of one root only.
        try (Riffle riffle = Riffle.using(connection, allocator);
                TableReader reader = riffle.table("bench.events").read().createReader()) {
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    VectorSchemaRoot copy = VectorSchemaRoot.create(batch.root().getSchema(), allocator);
                    for (int i = 0; i < copy.getFieldVectors().size(); i++) {
                        batch.root().getVector(i).makeTransferPair(copy.getVector(i)).transfer();
                    }
                    copy.setRowCount(batch.rowCount());
                    held.add(copy);
                }
            }
        }
        return held;
    }

    /** Where the server spent a round's calls: mean time per command, so a ratio can be explained. */
    private static void printServerTimes(SimpleMeterRegistry registry) {
        for (Timer timer : registry.find("riffle_flight_calls").timers()) {
            System.out.printf(Locale.ROOT, "    server %s: %,d calls, mean %.3f ms%n", timer.getId().getTag("command"),
                    timer.count(), timer.mean(TimeUnit.MILLISECONDS));
        }
    }

    /** Unmeasured point-query rounds against both servers, until Riffle's p50 settles (see the class comment). */
    /**
     * Unmeasured scans through both servers before the measured rounds: the server JVM is still
     * compiling the read and send paths over the first rounds (on 2026-12-06 the JIT's threads took
     * 65% of its CPU during measured rounds 2-5 without this), and a server is measured as it runs
     * once it has served for a while, as {@link #warmUpForLookups} does for point queries.
     */
    private static void warmUpForScans(String bootstrap, String riffle, String floor, int rows) throws Exception {
        for (int round = 1; round <= Integer.getInteger("bench.scanWarmups", SERVER_WARMUP_ROUNDS); round++) {
            double flight = run("child-scan-flight", bootstrap, riffle, rows, 0);
            double floorRate = run("child-scan-flight", bootstrap, floor, rows, 0);
            System.out.printf(Locale.ROOT, "server warm-up %d (not measured): scan %.2f M rows/s, floor %.2f M rows/s%n",
                    round, flight / 1e6, floorRate / 1e6);
        }
    }

    private static void warmUpForLookups(String bootstrap, String riffle, String floor, int rows) throws Exception {
        double previous = Double.NaN;
        for (int round = 1; round <= SERVER_WARMUP_ROUNDS; round++) {
            double floorP50 = run("child-lookup-flight", bootstrap, floor, rows, 0);
            double p50 = run("child-lookup-flight", bootstrap, riffle, rows, 0);
            System.out.printf(Locale.ROOT, "server warm-up %d (not measured): point query p50 %.3f ms, floor %.3f ms%n",
                    round, p50, floorP50);
            if (Math.abs(p50 - previous) < 0.05 * previous) {
                return;
            }
            previous = p50;
        }
    }

    private static double run(String mode, String bootstrap, String location, int rows, int round) throws Exception {
        long serverCpu = CpuTime.processNanos();
        double result = ClientJvm.run(FlightSqlBenchmark.class, List.of(mode, bootstrap, location, Integer.toString(rows),
                Integer.toString(round), ACCEPTED_COMPRESSION), "execute ", "pass ");
        if (mode.startsWith("child-scan")) {
            System.out.printf(Locale.ROOT, "    cluster + server JVM CPU %.2f s over the client's passes%n",
                    (CpuTime.processNanos() - serverCpu) / 1e9);
        }
        return result;
    }

    private static void child(String[] args) throws Exception {
        String mode = args[0];
        String bootstrap = args[1];
        Location location = new Location(args[2]);
        int rows = Integer.parseInt(args[3]);
        int round = Integer.parseInt(args[4]);
        switch (mode) {
            case "child-scan-riffle" -> scanRiffle(bootstrap, rows);
            case "child-scan-flight" -> scanFlight(location, rows, args[5]);
            case "child-lookup-java" -> LookuperBaseline.measure(bootstrap, KEYS, WARMUP, LOOKUPS);
            case "child-lookup-flight" -> lookupFlight(location);
            case "child-ingest-java" -> ingestJava(bootstrap, round);
            case "child-ingest-flight" -> ingestFlight(location, round);
            default -> throw new IllegalArgumentException(mode);
        }
        System.exit(0); // client libraries keep non-daemon threads; the measurement is printed
    }

    private static void scanRiffle(String bootstrap, int expected) throws Exception {
        try (Riffle riffle = Riffle.connect(bootstrap)) {
            for (int pass = 1; pass <= ScanPasses.PASSES; pass++) {
                long rows = 0;
                long started = System.nanoTime();
                long cpu = CpuTime.processNanos();
                try (TableReader reader = riffle.table("bench.events").read().createReader()) {
                    while (reader.hasNext()) {
                        try (ReadBatch batch = reader.next()) {
                            // The rows decoded, as a client that uses them has them (a batch read
                            // from the log is decoded when its root is first asked for).
                            rows += batch.root().getRowCount();
                        }
                    }
                }
                ScanPasses.check(rows, expected);
                ScanPasses.report(pass, rows, started, cpu, "");
            }
        }
    }

    private static void scanFlight(Location location, int expected, String accepted) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, location).build()) {
            FlightSqlClient sql = new FlightSqlClient(client);
            FlightCallHeaders headers = new FlightCallHeaders();
            if (!accepted.isEmpty()) {
                headers.insert(AcceptedCompression.HEADER, accepted);
            }
            CallOption header = new HeaderCallOption(headers);
            for (int pass = 1; pass <= ScanPasses.PASSES; pass++) {
                long started = System.nanoTime();
                long cpu = CpuTime.processNanos();
                FlightInfo info = sql.execute("SELECT * FROM bench.events", header);
                long planned = System.nanoTime();
                AtomicLong firstBatch = new AtomicLong(Long.MAX_VALUE);
                AtomicLong batches = new AtomicLong();
                // The endpoints at once, as a client of a scan cut into endpoints fetches them.
                List<Future<Long>> parts = new ArrayList<>();
                ExecutorService pool = Executors.newFixedThreadPool(info.getEndpoints().size());
                for (FlightEndpoint endpoint : info.getEndpoints()) {
                    parts.add(pool.submit(() -> {
                        long read = 0;
                        try (FlightStream stream = sql.getStream(endpoint.getTicket(), header)) {
                            while (stream.next()) {
                                firstBatch.accumulateAndGet(System.nanoTime(), Math::min);
                                batches.incrementAndGet();
                                read += stream.getRoot().getRowCount();
                            }
                        }
                        return read;
                    }));
                }
                long rows = 0;
                for (Future<Long> part : parts) {
                    rows += part.get();
                }
                pool.shutdown();
                ScanPasses.check(rows, expected);
                ScanPasses.report(pass, rows, started, cpu, String.format(Locale.ROOT, ", FlightInfo after %.0f ms, first"
                        + " batch after %.0f ms, %d endpoints, %d batches", (planned - started) / 1e6,
                        (firstBatch.get() - started) / 1e6, info.getEndpoints().size(), batches.get()));
            }
        }
    }

    private static void lookupFlight(Location location) throws Exception {
        double[] millis = new double[LOOKUPS];
        double[] executeMillis = new double[LOOKUPS];
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, location).build()) {
            FlightSqlClient sql = new FlightSqlClient(client);
            try (FlightSqlClient.PreparedStatement prepared = sql.prepare("SELECT owner FROM bench.accounts WHERE id = ?");
                    VectorSchemaRoot parameters = VectorSchemaRoot.create(prepared.getParameterSchema(), allocator)) {
                BigIntVector key = (BigIntVector) parameters.getVector(0);
                for (int i = 0; i < WARMUP + LOOKUPS; i++) {
                    long id = PointKeys.key(i, KEYS);
                    long started = System.nanoTime();
                    parameters.allocateNew();
                    key.setSafe(0, id);
                    parameters.setRowCount(1);
                    prepared.setParameters(parameters);
                    FlightInfo info = prepared.execute();
                    long executed = System.nanoTime();
                    long found = 0;
                    try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket())) {
                        while (stream.next()) {
                            found += stream.getRoot().getRowCount();
                        }
                    }
                    if (found != 1) {
                        throw new IllegalStateException("key " + id + " answered " + found + " rows");
                    }
                    if (i >= WARMUP) {
                        millis[i - WARMUP] = (System.nanoTime() - started) / 1e6;
                        executeMillis[i - WARMUP] = (executed - started) / 1e6;
                    }
                }
            }
        }
        Arrays.sort(executeMillis);
        System.out.printf(Locale.ROOT, "execute (bind + FlightInfo) p50 %.3f ms%n", executeMillis[LOOKUPS / 2]);
        PointKeys.printResult(millis, "queries");
    }

    private static void ingestJava(String bootstrap, int round) throws Exception {
        TablePath path = TablePath.of("bench", "ingest_java_" + round);
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrap);
        double seconds;
        try (Connection connection = ConnectionFactory.createConnection(conf)) {
            try (Admin admin = connection.getAdmin()) {
                admin.createTable(path, ingestTable(), false).get();
            }
            try (Table table = connection.getTable(path)) {
                AppendWriter writer = table.newAppend().createWriter();
                long started = System.nanoTime();
                for (int id = 0; id < INGEST_ROWS; id++) {
                    writer.append(GenericRow.of((long) id, BinaryString.fromString("kind-" + (id % 10))));
                }
                writer.flush();
                seconds = (System.nanoTime() - started) / 1e9;
            }
        }
        System.out.printf(Locale.ROOT, "RESULT %.0f rows/s (%,d rows in %.2f s)%n", INGEST_ROWS / seconds, INGEST_ROWS,
                seconds);
    }

    private static void ingestFlight(Location location, int round) throws Exception {
        String table = "ingest_flight_" + round;
        double seconds;
        long written;
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, location).build();
                VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(List.of(
                        Field.nullable("id", new ArrowType.Int(64, true)), Field.nullable("kind", ArrowType.Utf8.INSTANCE))),
                        allocator)) {
            // The same table as the AppendWriter's (4 buckets), made with DDL over Flight SQL before the clock starts.
            new FlightSqlClient(client).executeUpdate("CREATE TABLE bench." + table + " (id BIGINT, kind STRING)"
                    + " WITH ('bucket.num' = '" + BUCKETS + "')");
            CommandStatementIngest command = CommandStatementIngest.newBuilder().setSchema("bench").setTable(table)
                    .setTableDefinitionOptions(TableDefinitionOptions.newBuilder()
                            .setIfNotExist(TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL)
                            .setIfExists(TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_APPEND)).build();
            long started = System.nanoTime();
            SyncPutListener listener = new SyncPutListener();
            FlightClient.ClientStreamListener writer = client.startPut(
                    FlightDescriptor.command(Any.pack(command).toByteArray()), root, listener);
            BigIntVector id = (BigIntVector) root.getVector("id");
            VarCharVector kind = (VarCharVector) root.getVector("kind");
            for (int start = 0; start < INGEST_ROWS; start += INGEST_BATCH) {
                int size = Math.min(INGEST_BATCH, INGEST_ROWS - start);
                root.allocateNew();
                for (int i = 0; i < size; i++) {
                    id.setSafe(i, start + i);
                    kind.setSafe(i, ("kind-" + ((start + i) % 10)).getBytes(StandardCharsets.UTF_8));
                }
                root.setRowCount(size);
                writer.putNext();
            }
            writer.completed();
            writer.getResult();
            try (var result = listener.read()) {
                written = org.apache.arrow.flight.sql.impl.FlightSql.DoPutUpdateResult.parseFrom(
                        result.getApplicationMetadata().nioBuffer()).getRecordCount();
            }
            seconds = (System.nanoTime() - started) / 1e9;
        }
        ScanPasses.check(written, INGEST_ROWS);
        System.out.printf(Locale.ROOT, "RESULT %.0f rows/s (%,d rows in %.2f s)%n", INGEST_ROWS / seconds, INGEST_ROWS,
                seconds);
    }

    private static TableDescriptor ingestTable() {
        return TableDescriptor.builder().schema(Schema.newBuilder().column("id", DataTypes.BIGINT())
                .column("kind", DataTypes.STRING()).build()).distributedBy(BUCKETS).build();
    }
}
