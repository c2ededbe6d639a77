package dev.riffle.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.riffle.gateway.Gateway;
import dev.riffle.local.LocalCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.utils.TimeUtils;

/**
 * Issue 6's benchmarks, in one run on the embedded cluster, over loopback:
 * <ol>
 *   <li>point lookups through the gateway ({@code GET .../rows/{key}}, keep-alive, 32 concurrent
 *       clients) against the same lookups through the Java client's {@code Lookuper}
 *       ({@code client.lookup.batch-timeout} 1 ms on both sides by default, 32 concurrent callers): target at least 0.8x
 *       (issue 17's P3; issue 6 asked for 0.5x); then the same lookups as {@code POST /v1/sql} with a
 *       {@code ?} parameter, in rounds of the same size alternating with {@code Lookuper} rounds of
 *       their own: target at least 0.5x; then the GETs again on the same connections, which now
 *       carried a POST, so Jetty's HTTP/1.1 connection serves them rather than the direct answers;
 *   <li>ingest through {@code POST .../rows} with Arrow batches of 10,000 rows
 * ({@code -Dbench.arrowBatch=N} for another size) and JSON-array and NDJSON batches of 1,000 rows
 * against the Java {@code AppendWriter}: rows/s, target at least 0.8x for Arrow (issue 17's P4) and
 * 0.4x for JSON and NDJSON (issue 43).
 * </ol>
 * With 0 lookups ({@code -Dbench.args="0 5000000"}) only the ingest part runs; with 0 rows
 * ({@code "250000 0"}) only the lookups.
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B -pl riffle-bench exec:exec -Dbench.class=HttpBenchmark -Dbench.args="250000 5000000"
 * </pre>
 * Arguments: lookups per side, measured in five alternating rounds after a warm-up that runs rounds of the same size until the rate settles (default 250,000:
 * rounds of 50,000 lookups, about two seconds each, after warm-up rounds as long; with rounds of
 * 10,000, under half a second, the HTTP side's rounds spread 18–28 k/s within one run on
 * 2026-12-05 while the {@code Lookuper}'s stayed within 27–29 k/s, and with rounds of 50,000
 * 25–28 k/s), rows ingested per side, likewise in five rounds (default 5,000,000: rounds of
 * 1,000,000 rows; with rounds of 200,000, about 0.15 s, the {@code AppendWriter}'s flush at each
 * round's end weighed on its rate (medians 1.2–1.6 M rows/s against 2.1–2.4 M in longer rounds), and P4
 * read 0.80x–1.19x where longer rounds read 0.61x–0.74x on the same code and day, rows then going
 * through Fluss's writer;
 * JSON ingests a fifth of each round), and the HTTP client: {@code raw} (default: {@link HttpBenchmarkClient},
 * one blocking keep-alive connection per client thread, as wrk would drive the gateway) or
 * {@code jdk} ({@code java.net.http.HttpClient}, whose own CPU per small request is several times
 * the gateway's and, on a two-core machine shared by client, gateway and cluster, is charged to
 * the HTTP side). The system property {@code bench.lookupBatchTimeout} (default {@code 1ms}, as Riffle's
 * servers set it) sets {@code client.lookup.batch-timeout} on both sides of the lookup comparison.
 * The system property {@code bench.lookupClients} (default 32) sets how many callers
 * each side of the lookup comparison has: with one caller both sides wait out the same lookup
 * batches, so the ratio shows what concurrency costs the gateway.
 */
public final class HttpBenchmark {
    private static final int BUCKETS = 4;
    private static final int KEYS = 100_000;
    /** Concurrent callers on each side of the lookup comparison; {@code -Dbench.lookupClients=N} sweeps it. */
    private static final int CLIENTS = Integer.getInteger("bench.lookupClients", 32);
    /**
     * {@code client.lookup.batch-timeout} of both sides, the gateway's Fluss client and the
     * {@code Lookuper}'s ({@code -Dbench.lookupBatchTimeout=500micros}; default Riffle's servers' 1 ms).
     */
    private static final Duration BATCH_TIMEOUT = TimeUtils.parseDuration(
            System.getProperty("bench.lookupBatchTimeout", "1ms"));
    /** Measured rounds per side of the lookup comparison (odd, for a median). */
    private static final int ROUNDS = 5;
    /**
     * At least ten rounds (100,000 requests at the default size): on two cores the JIT compiles
     * the HTTP paths over 100,000–200,000 requests, and five rounds stopped while a path was still
     * getting faster (its measured rounds then rose past the warm-up's best).
     */
    private static final int MIN_WARMUP_ROUNDS = 10;
    private static final int MAX_WARMUP_ROUNDS = 15;
    private static final int INGEST_CLIENTS = 4;
    private static final int ARROW_BATCH = Integer.getInteger("bench.arrowBatch", 10_000);
    private static final int JSON_BATCH = 1_000;
    private static final Schema KV = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING())
            .column("amount", DataTypes.BIGINT()).column("score", DataTypes.DOUBLE()).primaryKey("id").build();
    private static final Schema LOG = Schema.newBuilder().column("id", DataTypes.BIGINT())
            .column("name", DataTypes.STRING()).column("amount", DataTypes.BIGINT()).column("score", DataTypes.DOUBLE())
            .build();

    private HttpBenchmark() {}

    public static void main(String[] args) throws Exception {
        List<String> values = new ArrayList<>();
        for (String arg : args) {
            values.addAll(List.of(arg.trim().split("\\s+")));
        }
        values.removeIf(String::isEmpty);
        int lookups = values.size() > 0 ? Integer.parseInt(values.get(0)) : 250_000;
        int ingestRows = values.size() > 1 ? Integer.parseInt(values.get(1)) : 5_000_000;
        boolean jdkClient = values.size() > 2 && values.get(2).equals("jdk");
        if (values.size() > 2 && !jdkClient && !values.get(2).equals("raw")) {
            throw new IllegalArgumentException("The third argument is the HTTP client: raw or jdk, got " + values.get(2));
        }

        Path dataDir = Files.createTempDirectory("riffle-http-bench");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false).start()) {
            Configuration fast = new Configuration(cluster.clientConfig());
            fast.set(ConfigOptions.CLIENT_LOOKUP_BATCH_TIMEOUT, BATCH_TIMEOUT);
            Configuration gatewayClient = new Configuration(cluster.clientConfig());
            gatewayClient.set(ConfigOptions.CLIENT_LOOKUP_BATCH_TIMEOUT, BATCH_TIMEOUT);
            try (Connection connection = ConnectionFactory.createConnection(fast);
                    Gateway gateway = Gateway.builder().clientConfig(gatewayClient).host("127.0.0.1").port(0)
                            .maxBodyBytes(256L << 20).start()) {
                try (Admin admin = connection.getAdmin()) {
                    admin.createDatabase("bench", DatabaseDescriptor.EMPTY, true).get();
                }
                HttpClient jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(10)).build();
                Http http = jdkClient ? jdkHttp(jdk) : new RawHttp(URI.create(gateway.url()));
                System.out.printf(Locale.ROOT, "HTTP client: %s%n", jdkClient ? "java.net.http.HttpClient (jdk)"
                        : "one blocking keep-alive connection per client thread (raw)");
                try {
                    if (lookups > 0) { // 0 measures ingest alone
                        lookups(connection, gateway, http, lookups);
                    }
                    if (ingestRows > 0) { // 0 measures lookups alone
                        ingest(connection, gateway, http, ingestRows);
                    }
                } finally {
                    http.close();
                }
            }
        } finally {
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** How the benchmark sends HTTP requests: a status and a body back. */
    private interface Http extends AutoCloseable {
        HttpBenchmarkClient.Response send(String url, String contentType, byte[] body) throws Exception;

        @Override
        default void close() throws Exception {}
    }

    private static Http jdkHttp(HttpClient client) {
        return (url, contentType, body) -> {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(2));
            if (body == null) {
                request.GET();
            } else {
                request.header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body));
            }
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new HttpBenchmarkClient.Response(response.statusCode(), response.body());
        };
    }

    /** A {@link HttpBenchmarkClient} per calling thread, each with its own keep-alive connection. */
    private static final class RawHttp implements Http {
        private final URI base;
        private final List<HttpBenchmarkClient> all = java.util.Collections.synchronizedList(new ArrayList<>());
        private final ThreadLocal<HttpBenchmarkClient> mine;

        RawHttp(URI base) {
            this.base = base;
            this.mine = ThreadLocal.withInitial(() -> {
                HttpBenchmarkClient client = new HttpBenchmarkClient(base);
                all.add(client);
                return client;
            });
        }

        @Override
        public HttpBenchmarkClient.Response send(String url, String contentType, byte[] body) throws IOException {
            String path = url.substring(base.toString().length());
            return body == null ? mine.get().get(path) : mine.get().post(path, contentType, body);
        }

        @Override
        public void close() throws IOException {
            synchronized (all) {
                for (HttpBenchmarkClient client : all) {
                    client.close();
                }
            }
        }
    }

    // ---- (a) point lookups ----

    private static void lookups(Connection connection, Gateway gateway, Http http, int lookups) throws Exception {
        TablePath path = TablePath.of("bench", "kv");
        create(connection, path, KV);
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = 0; i < KEYS; i++) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString("customer-" + i), (long) i * 3, i * 0.25));
            }
            writer.flush();
            Lookuper lookuper = table.newLookup().createLookuper();
            awaitVisible(lookuper);
            String rowUrl = gateway.url() + "/v1/databases/bench/tables/kv/rows/";
            String sqlUrl = gateway.url() + "/v1/sql";
            String sql = "SELECT id, name, amount, score FROM bench.kv WHERE id = ?";

            // A Lookuper reuses its key encoder, so it is not thread-safe: one per caller thread, all
            // on the one connection (whose lookup client batches them together).
            ThreadLocal<Lookuper> lookupers = ThreadLocal.withInitial(() -> table.newLookup().createLookuper());
            Caller java = key -> {
                if (lookupers.get().lookup(GenericRow.of(key)).get().getSingletonRow() == null) {
                    throw new IllegalStateException("key " + key + " not found");
                }
            };
            Caller rest = key -> expect(http.send(rowUrl + key, null, null), 200);
            Caller overSql = key -> expect(http.send(sqlUrl, "application/json",
                    ("{\"sql\": \"" + sql + "\", \"parameters\": [" + key + "]}").getBytes(UTF_8)), 200);
            // Warm up every path until its rate settles (the JIT compiles Jetty's and Javalin's paths over
            // tens of thousands of requests), then measure the two sides in alternating rounds, so that a
            // noisy spell of the shared machine falls on both, and compare their medians.
            // The same caller threads for every round of both sides (see run).
            ExecutorService callers = Executors.newFixedThreadPool(CLIENTS);
            try {
                int round = Math.max(CLIENTS * 50, lookups / ROUNDS);
                warm("Java Lookuper", () -> run(callers, java, round));
                warm("HTTP GET /rows/{key}", () -> run(callers, rest, round));
                Alternated overGet = alternate(callers, java, rest, round);
                double[] javaRates = overGet.baseline();
                double[] restRates = overGet.http();
                // SQL only after: warming it up compiles much of Calcite, which would go on during the rounds above.
                // Its rounds alternate with Lookuper rounds of their own, of the same size, as the GET rounds do.
                warm("HTTP POST /v1/sql", () -> run(callers, overSql, round));
                Alternated overPost = alternate(callers, java, overSql, round);
                double[] javaSqlRates = overPost.baseline();
                double[] sqlRates = overPost.http();
                // The GETs again, now on connections that carried a POST: Jetty's HTTP/1.1 connection serves
                // those (a connection leaves the direct answers at its first request they do not take).
                Alternated overJetty = alternate(callers, java, rest, round);
                double javaRate = median(javaRates);
                double restRate = median(restRates);
                double javaSqlRate = median(javaSqlRates);
                double sqlRate = median(sqlRates);
                System.out.printf(Locale.ROOT, "%nPoint lookups (%,d keys, %d buckets, %d concurrent callers, %d alternating rounds "
                        + "of %,d lookups each side; client.lookup.batch-timeout %s on both sides; medians)%n", KEYS, BUCKETS,
                        CLIENTS, ROUNDS, round, TimeUtils.formatWithHighestUnit(BATCH_TIMEOUT));
                System.out.printf(Locale.ROOT, "  Java Lookuper                          %,10.0f lookups/s   rounds %s%n", javaRate,
                        rates(javaRates));
                System.out.printf(Locale.ROOT, "  HTTP GET /rows/{key} (keep-alive)      %,10.0f lookups/s   ratio %.2fx   (target >= 0.8x, P3)"
                        + "   rounds %s%n", restRate, restRate / javaRate, rates(restRates));
                System.out.printf(Locale.ROOT, "  Java Lookuper, rounds beside SQL's     %,10.0f lookups/s   rounds %s%n", javaSqlRate,
                        rates(javaSqlRates));
                System.out.printf(Locale.ROOT, "  HTTP POST /v1/sql WHERE id = ?         %,10.0f lookups/s   ratio %.2fx   (target >= 0.5x)"
                        + "   rounds %s%n", sqlRate, sqlRate / javaSqlRate, rates(sqlRates));
                double javaJettyRate = median(overJetty.baseline());
                double jettyRate = median(overJetty.http());
                System.out.printf(Locale.ROOT, "  Java Lookuper, rounds beside the next   %,10.0f lookups/s   rounds %s%n",
                        javaJettyRate, rates(overJetty.baseline()));
                System.out.printf(Locale.ROOT, "  HTTP GET /rows/{key}, Jetty's connection %,8.0f lookups/s   ratio %.2fx"
                        + "   rounds %s%n", jettyRate, jettyRate / javaJettyRate, rates(overJetty.http()));
            } finally {
                callers.shutdownNow();
            }
        }
    }

    /**
     * Runs rounds until two rounds in a row fail to beat the best one before by
     * 5% (at least {@link #MIN_WARMUP_ROUNDS}, at most {@link #MAX_WARMUP_ROUNDS}): the JIT compiles a path over many rounds when the
     * two cores are busy with it, so one flat pair of rounds is not yet the steady state.
     */
    /** One measured round: its rate. */
    private interface Round {
        double run() throws Exception;
    }

    private static void warm(String name, Round round) throws Exception {
        double best = 0;
        int flat = 0;
        StringBuilder seen = new StringBuilder();
        for (int r = 0; r < MAX_WARMUP_ROUNDS && (flat < 2 || r < MIN_WARMUP_ROUNDS); r++) {
            double rate = round.run();
            seen.append(seen.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%,.0f", rate));
            flat = rate > best * 1.05 ? 0 : flat + 1;
            best = Math.max(best, rate);
        }
        System.out.printf(Locale.ROOT, "  warm-up %-22s %s /s%n", name, seen);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static String rates(double[] values) {
        StringBuilder out = new StringBuilder();
        for (double value : values) {
            out.append(out.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%,.0f", value));
        }
        return out.toString();
    }

    /** Waits (at most a minute) until every key answers a lookup, checking all of them in bursts. */
    private static void awaitVisible(Lookuper lookuper) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        int from = 0;
        while (from < KEYS) {
            List<java.util.concurrent.CompletableFuture<org.apache.fluss.client.lookup.LookupResult>> burst = new ArrayList<>();
            int to = Math.min(KEYS, from + 1_000);
            for (int key = from; key < to; key++) {
                burst.add(lookuper.lookup(GenericRow.of(key)));
            }
            boolean all = true;
            for (var result : burst) {
                all &= result.get().getSingletonRow() != null;
            }
            if (all) {
                from = to;
            } else if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Keys " + from + ".." + to + " are still not all visible after a minute");
            } else {
                Thread.sleep(100);
            }
        }
    }

    private interface Caller {
        void call(int key) throws Exception;
    }

    /** The rates of {@link #ROUNDS} rounds of each side, in the order they ran. */
    private record Alternated(double[] baseline, double[] http) {}

    /** {@link #ROUNDS} rounds of {@code baseline} and {@code http}, one after the other. */
    private static Alternated alternate(ExecutorService callers, Caller baseline, Caller http, int round)
            throws Exception {
        Alternated rates = new Alternated(new double[ROUNDS], new double[ROUNDS]);
        for (int r = 0; r < ROUNDS; r++) {
            rates.baseline()[r] = run(callers, baseline, round);
            rates.http()[r] = run(callers, http, round);
        }
        return rates;
    }

    /**
     * {@code total} calls spread over the {@link #CLIENTS} caller threads, keys scattered; returns
     * calls per second. The callers are the same threads every round, so each keeps its HTTP
     * connection (and its {@code Lookuper}) from round to round, as a load generator such as wrk
     * keeps its connections: a round measures requests, not connection setup.
     */
    private static double run(ExecutorService callers, Caller caller, int total) throws Exception {
        int each = total / CLIENTS;
        List<Future<?>> done = new ArrayList<>();
        long started = System.nanoTime();
        for (int t = 0; t < CLIENTS; t++) {
            int thread = t;
            done.add(callers.submit(() -> {
                for (int i = 0; i < each; i++) {
                    caller.call((int) ((thread * 7919L + i * 104_729L) % KEYS));
                }
                return null;
            }));
        }
        for (Future<?> future : done) {
            future.get();
        }
        return (double) each * CLIENTS / ((System.nanoTime() - started) / 1e9);
    }

    // ---- (b) ingest ----

    private static void ingest(Connection connection, Gateway gateway, Http http, int rows) throws Exception {
        TablePath javaTable = TablePath.of("bench", "ingest_java");
        TablePath arrowTable = TablePath.of("bench", "ingest_arrow");
        TablePath jsonTable = TablePath.of("bench", "ingest_json");
        TablePath ndjsonTable = TablePath.of("bench", "ingest_ndjson");
        for (TablePath path : List.of(javaTable, arrowTable, jsonTable, ndjsonTable)) {
            create(connection, path, LOG);
        }
        // Each side appends the same rows every round (log tables keep them all).
        int arrowBatches = Math.max(INGEST_CLIENTS, rows / ROUNDS / ARROW_BATCH);
        int roundRows = arrowBatches * ARROW_BATCH;
        int jsonBatches = Math.max(INGEST_CLIENTS, roundRows / 5 / JSON_BATCH);

        // The request bodies are encoded before the clock starts: this measures the gateway, not the client's encoder.
        List<byte[]> arrowBodies = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int b = 0; b < arrowBatches; b++) {
                arrowBodies.add(arrowBatch(allocator, (long) b * ARROW_BATCH, ARROW_BATCH));
            }
        }
        List<byte[]> jsonBodies = new ArrayList<>();
        List<byte[]> ndjsonBodies = new ArrayList<>();
        for (int b = 0; b < jsonBatches; b++) {
            jsonBodies.add(jsonBatch((long) b * JSON_BATCH, JSON_BATCH, false));
            ndjsonBodies.add(jsonBatch((long) b * JSON_BATCH, JSON_BATCH, true));
        }
        Round java = () -> javaAppend(connection, javaTable, 0, roundRows);
        Round arrow = () -> post(http, rowsUrl(gateway, arrowTable), "application/vnd.apache.arrow.stream", arrowBodies,
                ARROW_BATCH);
        Round json = () -> post(http, rowsUrl(gateway, jsonTable), "application/json", jsonBodies, JSON_BATCH);
        Round ndjson = () -> post(http, rowsUrl(gateway, ndjsonTable), "application/x-ndjson", ndjsonBodies,
                JSON_BATCH);

        // As for lookups: each side warmed to a steady rate, then alternating rounds, medians compared.
        warm("Java AppendWriter", java);
        warm("HTTP Arrow IPC", arrow);
        warm("HTTP JSON", json);
        warm("HTTP NDJSON", ndjson);
        double[] javaRates = new double[ROUNDS];
        double[] arrowRates = new double[ROUNDS];
        double[] jsonRates = new double[ROUNDS];
        double[] ndjsonRates = new double[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            javaRates[r] = java.run();
            arrowRates[r] = arrow.run();
            jsonRates[r] = json.run();
            ndjsonRates[r] = ndjson.run();
        }
        double javaRate = median(javaRates);
        double arrowRate = median(arrowRates);
        double jsonRate = median(jsonRates);
        double ndjsonRate = median(ndjsonRates);
        System.out.printf(Locale.ROOT, "%nIngest into a log table (BIGINT, STRING, BIGINT, DOUBLE; %d buckets; %d alternating "
                + "rounds; medians)%n", BUCKETS, ROUNDS);
        System.out.printf(Locale.ROOT, "  Java AppendWriter (one writer, flush at end)   %,12.0f rows/s   (%,d rows a round)"
                + "   rounds %s%n", javaRate, roundRows, rates(javaRates));
        System.out.printf(Locale.ROOT, "  HTTP Arrow IPC, 10,000-row batches             %,12.0f rows/s   ratio %.2fx   "
                + "(target >= 0.8x, P4; %,d rows a round, %d concurrent clients)   rounds %s%n", arrowRate,
                arrowRate / javaRate, roundRows, INGEST_CLIENTS, rates(arrowRates));
        System.out.printf(Locale.ROOT, "  HTTP JSON array, 1,000-row batches             %,12.0f rows/s   ratio %.2fx   "
                + "(target >= 0.4x; %,d rows a round, %d concurrent clients)   rounds %s%n", jsonRate,
                jsonRate / javaRate, jsonBatches * JSON_BATCH, INGEST_CLIENTS, rates(jsonRates));
        System.out.printf(Locale.ROOT, "  HTTP NDJSON, 1,000-row batches                 %,12.0f rows/s   ratio %.2fx   "
                + "(target >= 0.4x; %,d rows a round, %d concurrent clients)   rounds %s%n", ndjsonRate,
                ndjsonRate / javaRate, jsonBatches * JSON_BATCH, INGEST_CLIENTS, rates(ndjsonRates));
    }

    private static String rowsUrl(Gateway gateway, TablePath path) {
        return gateway.url() + "/v1/databases/" + path.getDatabaseName() + "/tables/" + path.getTableName() + "/rows";
    }

    private static double javaAppend(Connection connection, TablePath path, long from, long to) throws Exception {
        long started = System.nanoTime();
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (long i = from; i < to; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("customer-" + (i % 10_000)), i * 3, i * 0.25));
            }
            writer.flush();
        }
        return (to - from) / ((System.nanoTime() - started) / 1e9);
    }

    /** Posts every body, {@link #INGEST_CLIENTS} at a time, each answered once Fluss acknowledged it; rows/s. */
    private static double post(Http http, String url, String contentType, List<byte[]> bodies, int rowsPerBody)
            throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(INGEST_CLIENTS);
        AtomicLong written = new AtomicLong();
        try {
            List<Future<?>> done = new ArrayList<>();
            long started = System.nanoTime();
            for (int t = 0; t < INGEST_CLIENTS; t++) {
                int thread = t;
                done.add(threads.submit(() -> {
                    for (int b = thread; b < bodies.size(); b += INGEST_CLIENTS) {
                        expect(http.send(url, contentType, bodies.get(b)), 200);
                        written.addAndGet(rowsPerBody);
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
            return written.get() / ((System.nanoTime() - started) / 1e9);
        } finally {
            threads.shutdownNow();
        }
    }

    private static byte[] arrowBatch(BufferAllocator allocator, long first, int rows) throws IOException {
        List<Field> fields = List.of(
                new Field("id", FieldType.nullable(new ArrowType.Int(64, true)), null),
                new Field("name", FieldType.nullable(ArrowType.Utf8.INSTANCE), null),
                new Field("amount", FieldType.nullable(new ArrowType.Int(64, true)), null),
                new Field("score", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(fields), allocator)) {
            BigIntVector id = (BigIntVector) root.getVector("id");
            VarCharVector name = (VarCharVector) root.getVector("name");
            BigIntVector amount = (BigIntVector) root.getVector("amount");
            Float8Vector score = (Float8Vector) root.getVector("score");
            root.allocateNew();
            for (int r = 0; r < rows; r++) {
                long i = first + r;
                id.setSafe(r, i);
                name.setSafe(r, ("customer-" + (i % 10_000)).getBytes(UTF_8));
                amount.setSafe(r, i * 3);
                score.setSafe(r, i * 0.25);
            }
            root.setRowCount(rows);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
                writer.start();
                writer.writeBatch();
                writer.end();
            }
            return out.toByteArray();
        }
    }

    /** Rows as a JSON array, or as NDJSON (one object per line). */
    private static byte[] jsonBatch(long first, int rows, boolean ndjson) {
        StringBuilder json = new StringBuilder(rows * 80).append(ndjson ? "" : "[");
        for (int r = 0; r < rows; r++) {
            long i = first + r;
            if (r > 0) {
                json.append(ndjson ? '\n' : ',');
            }
            json.append("{\"id\":").append(i).append(",\"name\":\"customer-").append(i % 10_000)
                    .append("\",\"amount\":").append(i * 3).append(",\"score\":").append(i * 0.25).append('}');
        }
        return json.append(ndjson ? "\n" : "]").toString().getBytes(UTF_8);
    }

    private static void create(Connection connection, TablePath path, Schema schema) throws Exception {
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(BUCKETS).build(), false).get();
        }
    }

    private static void expect(HttpBenchmarkClient.Response response, int status) {
        if (response.status() != status) {
            throw new IllegalStateException("HTTP " + response.status() + ": " + response.text());
        }
    }
}
