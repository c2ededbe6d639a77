package dev.riffle.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Issue 12's soak: {@code bin/riffle local} (cluster, lake, tiering and gateway in one process,
 * started here as a user starts it) under mixed HTTP load for a fixed time — log appends,
 * primary-key upserts, point lookups, bounded log scans, union reads of the datalake-enabled
 * tables (tiering runs all along), SQL point queries and counts. Every minute it prints, per
 * operation, the count and p50/p99 latency, the 5xx answers, and what the process retains: with
 * the load held off for a few seconds and no request in flight, its heap after a full GC (the
 * least of three {@code jcmd GC.run}, each then {@code GC.heap_info}), threads and open files
 * (from {@code /proc}).
 *
 * <p>Passes when heap, threads and open files stay flat from minute 5 to the end (the largest
 * value at most 10% above the smallest) and no request answered 5xx or failed to answer.
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B -pl riffle-bench exec:exec -Dbench.class=SoakBenchmark -Dbench.args="20 4"
 * </pre>
 * Arguments: minutes (default 20), concurrent clients (default 4).
 */
public final class SoakBenchmark {
    private static final int FLAT_FROM_MINUTE = 5;
    private static final double FLAT_TOLERANCE = 0.10;
    private static final int KEYS = 50_000;
    private static final int ROWS_PER_WRITE = 100;
    private static final int GCS_PER_SAMPLE = 3;
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");

    /** What the load does, with its share of the requests. */
    enum Operation {
        APPEND(15), UPSERT(15), LOOKUP(30), SCAN(10), UNION_LOG(5), UNION_PK(5), SQL_POINT(15), SQL_COUNT(5);

        final int weight;

        Operation(int weight) {
            this.weight = weight;
        }
    }

    /** One answered (or failed) request of the current minute. */
    private record Sample(Operation operation, long nanos, int status) {}

    /** One minute's line of the table. */
    private record Minute(int minute, Map<Operation, long[]> latencies, long serverErrors, long failures,
            long heapAfterGcBytes, long threads, long openFiles) {}

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;
    private final AtomicBoolean running = new AtomicBoolean(true);
    /** Requests in flight, and whether the clients hold off while the process is measured. */
    private final Object pause = new Object();
    private boolean paused;
    private int inFlight;
    private final ConcurrentLinkedQueue<Sample> samples = new ConcurrentLinkedQueue<>();
    private final AtomicLong logIds = new AtomicLong();
    private final List<String> firstErrors = Collections.synchronizedList(new ArrayList<>());

    private SoakBenchmark(String base) {
        this.base = base;
    }

    public static void main(String[] args) throws Exception {
        // exec:exec passes -Dbench.args as one argument; a shell passes them one by one.
        String[] words = String.join(" ", args).trim().split("\\s+");
        int minutes = words.length > 0 && !words[0].isEmpty() ? Integer.parseInt(words[0]) : 20;
        int clients = words.length > 1 ? Integer.parseInt(words[1]) : 4;
        Path riffle = BinRiffle.locate();
        Path dataDir = Files.createTempDirectory("riffle-soak");
        int httpPort = freePort();
        Path out = dataDir.resolve("riffle-local.out");
        Process local = new ProcessBuilder(riffle.toString(), "local", "--data-dir", dataDir.resolve("data").toString(),
                "--http-port", Integer.toString(httpPort), "--port", "0", "--flight-port", "0")
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        System.out.printf(Locale.ROOT, "Soak: bin/riffle local (process %d, data %s), %d minutes, %d clients%n",
                local.pid(), dataDir, minutes, clients);
        int exit;
        try {
            SoakBenchmark soak = new SoakBenchmark("http://127.0.0.1:" + httpPort);
            soak.awaitHealthy(local, out);
            System.out.println(Files.readAllLines(out).stream().filter(l -> l.contains("Heap limit")).findFirst()
                    .orElse("(no heap line)").strip());
            soak.createTables();
            exit = soak.run(local.pid(), minutes, clients) ? 0 : 1;
        } finally {
            local.destroy(); // SIGTERM: riffle local stops cleanly
            if (!local.waitFor(120, TimeUnit.SECONDS)) {
                local.destroyForcibly();
            }
        }
        System.exit(exit);
    }

    private boolean run(long pid, int minutes, int clients) throws Exception {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            Thread thread = new Thread(this::loadLoop, "soak-client-" + i);
            thread.setDaemon(true);
            thread.start();
            threads.add(thread);
        }
        List<Minute> table = new ArrayList<>();
        printHeader();
        long start = System.nanoTime();
        for (int minute = 1; minute <= minutes; minute++) {
            long end = start + TimeUnit.MINUTES.toNanos(minute);
            Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
            List<Sample> window = drain();
            int number = minute;
            Minute row = quiesced(() -> minute(number, window, pid));
            table.add(row);
            print(row);
        }
        running.set(false);
        for (Thread thread : threads) {
            thread.join(TimeUnit.MINUTES.toMillis(2));
        }
        return verdict(table);
    }

    private void loadLoop() {
        while (running.get()) {
            if (!enter()) {
                return;
            }
            try {
                request();
            } finally {
                leave();
            }
        }
    }

    /** Waits while the load is paused; false when interrupted. */
    private boolean enter() {
        synchronized (pause) {
            while (paused) {
                try {
                    pause.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            inFlight++;
            return true;
        }
    }

    private void leave() {
        synchronized (pause) {
            inFlight--;
            pause.notifyAll();
        }
    }

    /**
     * Runs a measurement with the load held off and no request in flight, then lets it go on. What
     * a process holds while it answers (a scan's page, a union read's tail folded in memory, a lake
     * file open) is not what it keeps: measured under load, heap after a full GC swung between
     * 115 and 213 MiB and open files between 322 and 373 from one minute to the next, with nothing
     * growing. Between requests only what the process retains is left (tiering goes on).
     */
    private <T> T quiesced(java.util.concurrent.Callable<T> measurement) throws Exception {
        synchronized (pause) {
            paused = true;
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (inFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException(inFlight + " requests still unanswered after 2 minutes");
                }
                pause.wait(TimeUnit.NANOSECONDS.toMillis(left) + 1);
            }
        }
        try {
            return measurement.call();
        } finally {
            synchronized (pause) {
                paused = false;
                pause.notifyAll();
            }
        }
    }

    private void request() {
        int total = Stream.of(Operation.values()).mapToInt(o -> o.weight).sum();
        {
            int pick = ThreadLocalRandom.current().nextInt(total);
            Operation operation = Operation.APPEND;
            for (Operation candidate : Operation.values()) {
                if (pick < candidate.weight) {
                    operation = candidate;
                    break;
                }
                pick -= candidate.weight;
            }
            long started = System.nanoTime();
            int status;
            try {
                HttpResponse<String> response = send(operation);
                // A lookup of a key no upsert has reached yet is a 404, as it should be.
                status = operation == Operation.LOOKUP && response.statusCode() == 404 ? 200 : response.statusCode();
                if (status != 200 && firstErrors.size() < 20) {
                    firstErrors.add(operation + " " + status + " " + clip(response.body()));
                }
            } catch (IOException | RuntimeException e) {
                status = -1;
                if (firstErrors.size() < 20) {
                    firstErrors.add(operation + " failed: " + e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            samples.add(new Sample(operation, System.nanoTime() - started, status));
        }
    }

    private HttpResponse<String> send(Operation operation) throws IOException, InterruptedException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return switch (operation) {
            case APPEND -> {
                StringBuilder rows = new StringBuilder("[");
                long first = logIds.getAndAdd(ROWS_PER_WRITE);
                for (int i = 0; i < ROWS_PER_WRITE; i++) {
                    rows.append(i == 0 ? "" : ",").append("{\"id\": ").append(first + i)
                            .append(", \"kind\": \"k").append((first + i) % 7).append("\", \"amount\": ")
                            .append(random.nextInt(1000)).append('}');
                }
                yield post("/v1/databases/soak/tables/events/rows", rows + "]");
            }
            case UPSERT -> {
                StringBuilder rows = new StringBuilder("[");
                for (int i = 0; i < ROWS_PER_WRITE; i++) {
                    rows.append(i == 0 ? "" : ",").append("{\"id\": ").append(random.nextInt(KEYS))
                            .append(", \"v\": \"value-").append(random.nextInt()).append("\"}");
                }
                yield post("/v1/databases/soak/tables/state/rows", rows + "]");
            }
            case LOOKUP -> get("/v1/databases/soak/tables/state/rows/" + random.nextInt(KEYS));
            case SCAN -> post("/v1/databases/soak/tables/events/scan",
                    "{\"source\": \"log\", \"columns\": [\"id\", \"amount\"], \"limit\": 500}");
            case UNION_LOG -> post("/v1/databases/soak/tables/events/scan",
                    "{\"columns\": [\"id\"], \"filter\": {\"column\": \"kind\", \"op\": \"=\", \"value\": \"k3\"}, "
                            + "\"limit\": 500}");
            case UNION_PK -> post("/v1/databases/soak/tables/state/scan", "{\"limit\": 500}");
            case SQL_POINT -> post("/v1/sql", "{\"sql\": \"SELECT v FROM soak.state WHERE id = ?\", \"parameters\": ["
                    + random.nextInt(KEYS) + "]}");
            case SQL_COUNT -> post("/v1/sql", "{\"sql\": \"SELECT kind, count(*) AS n FROM soak.events "
                    + "WHERE amount < 10 GROUP BY kind\"}");
        };
    }

    private HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120)).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private List<Sample> drain() {
        List<Sample> window = new ArrayList<>();
        for (Sample sample; (sample = samples.poll()) != null; ) {
            window.add(sample);
        }
        return window;
    }

    private static Minute minute(int minute, List<Sample> window, long pid) throws Exception {
        Map<Operation, List<Long>> byOperation = new EnumMap<>(Operation.class);
        long serverErrors = 0;
        long failures = 0;
        for (Sample sample : window) {
            byOperation.computeIfAbsent(sample.operation(), o -> new ArrayList<>()).add(sample.nanos());
            if (sample.status() >= 500) {
                serverErrors++;
            } else if (sample.status() != 200) {
                failures++;
            }
        }
        Map<Operation, long[]> latencies = new EnumMap<>(Operation.class);
        byOperation.forEach((operation, nanos) -> {
            Collections.sort(nanos);
            latencies.put(operation, new long[] {nanos.size(), percentile(nanos, 0.50), percentile(nanos, 0.99)});
        });
        return new Minute(minute, latencies, serverErrors, failures, heapAfterFullGc(pid), threads(pid),
                openFiles(pid));
    }

    private static long percentile(List<Long> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }

    /**
     * The least heap in use right after each of three full GCs a second apart: tiering rounds
     * go on while the load is held off, and a round's Paimon write buffers may be live at one GC
     * and gone at the next. Retained garbage that grows (a leak) raises all three.
     */
    private static long heapAfterFullGc(long pid) throws Exception {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < GCS_PER_SAMPLE; i++) {
            if (i > 0) {
                Thread.sleep(1000); // spacing the GCs apart is the point
            }
            jcmd(pid, "GC.run");
            String info = jcmd(pid, "GC.heap_info");
            Matcher used = HEAP_USED.matcher(info);
            if (!used.find()) {
                throw new IllegalStateException("jcmd GC.heap_info said no 'used': " + info);
            }
            least = Math.min(least, Long.parseLong(used.group(1)) * 1024);
        }
        return least;
    }

    private static String jcmd(long pid, String command) throws Exception {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), command).redirectErrorStream(true).start();
        String output = new String(jcmd.getInputStream().readAllBytes(), UTF_8);
        if (!jcmd.waitFor(60, TimeUnit.SECONDS) || jcmd.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + pid + " " + command + " failed: " + output);
        }
        return output;
    }

    private static long threads(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                .filter(line -> line.startsWith("Threads:"))
                .mapToLong(line -> Long.parseLong(line.substring("Threads:".length()).trim()))
                .findFirst().orElseThrow();
    }

    private static long openFiles(long pid) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.count();
        }
    }

    private static void printHeader() {
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-4s", "min"));
        for (Operation operation : Operation.values()) {
            header.append(String.format(Locale.ROOT, " | %-22s", operation.name().toLowerCase(Locale.ROOT)
                    + " n p50/p99 ms"));
        }
        header.append(" | 5xx | fail | heap MiB | threads | files");
        System.out.println(header);
    }

    private static void print(Minute row) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-4d", row.minute()));
        for (Operation operation : Operation.values()) {
            long[] l = row.latencies().getOrDefault(operation, new long[] {0, 0, 0});
            line.append(String.format(Locale.ROOT, " | %6d %6.1f/%7.1f", l[0], l[1] / 1e6, l[2] / 1e6));
        }
        line.append(String.format(Locale.ROOT, " | %3d | %4d | %8.1f | %7d | %5d", row.serverErrors(),
                row.failures(), row.heapAfterGcBytes() / 1048576.0, row.threads(), row.openFiles()));
        System.out.println(line);
        System.out.flush();
    }

    private boolean verdict(List<Minute> table) {
        List<Minute> steady = table.stream().filter(m -> m.minute() >= FLAT_FROM_MINUTE).toList();
        boolean ok = true;
        long serverErrors = table.stream().mapToLong(Minute::serverErrors).sum();
        long failures = table.stream().mapToLong(Minute::failures).sum();
        System.out.printf(Locale.ROOT, "5xx answers: %d; other failed requests: %d%n", serverErrors, failures);
        if (serverErrors > 0 || failures > 0) {
            ok = false;
            firstErrors.forEach(error -> System.out.println("  " + error));
        }
        if (steady.size() < 2) {
            System.out.printf(Locale.ROOT, "Too short to judge flatness (needs minutes %d and later)%n",
                    FLAT_FROM_MINUTE);
            return false;
        }
        ok &= flat("heap after full GC (MiB)", steady.stream().mapToDouble(m -> m.heapAfterGcBytes() / 1048576.0)
                .toArray());
        ok &= flat("threads", steady.stream().mapToDouble(Minute::threads).toArray());
        ok &= flat("open files", steady.stream().mapToDouble(Minute::openFiles).toArray());
        System.out.println(ok ? "PASS" : "FAIL");
        return ok;
    }

    private static boolean flat(String what, double[] values) {
        double min = Double.MAX_VALUE;
        double max = 0;
        for (double value : values) {
            min = Math.min(min, value);
            max = Math.max(max, value);
        }
        boolean flat = max <= min * (1 + FLAT_TOLERANCE);
        System.out.printf(Locale.ROOT, "%s from minute %d: min %.1f, max %.1f (%+.1f%%): %s%n", what,
                FLAT_FROM_MINUTE, min, max, 100 * (max / min - 1), flat ? "flat" : "NOT flat");
        return flat;
    }

    private void awaitHealthy(Process local, Path out) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5); // the first run builds Riffle
        while (System.nanoTime() < deadline) {
            if (!local.isAlive()) {
                throw new IllegalStateException("bin/riffle local exited: " + Files.readString(out));
            }
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(base + "/health")).timeout(Duration.ofSeconds(5))
                        .GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500); // bin/riffle local is starting; its port is all there is to watch
        }
        throw new IllegalStateException("bin/riffle local did not answer /health within 5 minutes: "
                + Files.readString(out));
    }

    private void createTables() throws Exception {
        expect(post("/v1/databases", "{\"name\": \"soak\"}"), 201);
        expect(post("/v1/databases/soak/tables", "{\"name\": \"events\", \"columns\": ["
                + "{\"name\": \"id\", \"type\": \"BIGINT\"}, {\"name\": \"kind\", \"type\": \"STRING\"}, "
                + "{\"name\": \"amount\", \"type\": \"INT\"}], \"buckets\": 3, "
                + "\"properties\": {\"table.datalake.enabled\": \"true\", \"table.datalake.freshness\": \"30s\"}}"), 201);
        expect(post("/v1/databases/soak/tables", "{\"name\": \"state\", \"columns\": ["
                + "{\"name\": \"id\", \"type\": \"INT\"}, {\"name\": \"v\", \"type\": \"STRING\"}], "
                + "\"primary_key\": [\"id\"], \"buckets\": 3, "
                + "\"properties\": {\"table.datalake.enabled\": \"true\", \"table.datalake.freshness\": \"30s\"}}"), 201);
    }

    private static void expect(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            throw new IllegalStateException("Expected " + status + ", got " + response.statusCode() + ": "
                    + response.body());
        }
    }

    private static String clip(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
