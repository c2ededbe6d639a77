package dev.riffle.cli.local;

import dev.riffle.cli.option.StatementOptions;
import dev.riffle.server.ServerRuntime;
import dev.riffle.server.session.ServerLimits;
import dev.riffle.server.statement.RunningStatements;

import dev.riffle.cli.option.ConsoleOption;
import dev.riffle.cli.option.PgTlsOptions;
import dev.riffle.cli.process.ShutdownSignals;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.LocalService;
import dev.riffle.local.demo.DemoData;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code riffle local}: an embedded Fluss cluster with a Paimon lake, plus every
 * {@link LocalService} on the classpath, until Ctrl-C or SIGTERM.
 */
@Command(name = "local", mixinStandardHelpOptions = true,
        description = "Run Fluss (ZooKeeper, coordinator, tablet servers) with a Paimon lake in this process.")
public final class LocalCommand implements Callable<Integer> {

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Where data lives; kept across restarts (default: ${DEFAULT-VALUE}).",
            defaultValue = "${user.home}/.riffle/local")
    Path dataDir;

    @Option(names = "--tablet-servers", paramLabel = "N", defaultValue = "1",
            description = "Number of tablet servers (default: ${DEFAULT-VALUE}; with 3 or more, tables are replicated 3 times).")
    int tabletServers;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "9123",
            description = "Coordinator port, the bootstrap address of clients (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int port;

    @Option(names = "--no-lake", description = "Run without the Paimon lake (and so without tiering).")
    boolean noLake;

    @Option(names = "--lake-option", paramLabel = "KEY=VALUE",
            description = "A Paimon catalog option of the lake, as Paimon names it; repeatable. For a lake on S3: "
                    + "--lake-option warehouse=s3://BUCKET/PATH --lake-option s3.endpoint=URL "
                    + "--lake-option s3.access-key=KEY --lake-option s3.secret-key=SECRET "
                    + "--lake-option s3.path.style.access=true (default warehouse: DIR/lake).")
    Map<String, String> lakeOptions = new LinkedHashMap<>();

    @Option(names = "--server-option", paramLabel = "KEY=VALUE",
            description = "A Fluss server option, as Fluss names it; repeatable. For Fluss's remote storage on S3: "
                    + "--server-option remote.data.dir=s3://BUCKET/PATH --server-option s3.endpoint=URL "
                    + "--server-option s3.access-key=KEY --server-option s3.secret-key=SECRET "
                    + "--server-option s3.path.style.access=true (default remote.data.dir: DIR/remote). Riffle's own "
                    + "clients get the file system options too.")
    Map<String, String> serverOptions = new LinkedHashMap<>();

    /** Server options that lay out the embedded cluster itself; one given twice would split it. */
    private static final java.util.Set<String> OWN_SERVER_OPTIONS = java.util.Set.of("zookeeper.address",
            "bind.listeners", "data.dir", "tablet-server.id", "advertised.listeners");

    @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "8080",
            description = "HTTP gateway port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int httpPort;

    @Option(names = "--flight-port", paramLabel = "PORT", defaultValue = "31337",
            description = "Arrow Flight SQL port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int flightPort;

    @Option(names = "--pg-port", paramLabel = "PORT", defaultValue = "15432",
            description = "PostgreSQL protocol port, for psql and PostgreSQL drivers (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int pgPort;

    @Mixin
    PgTlsOptions pgTls;

    @Mixin
    ConsoleOption console;

    @Mixin
    StatementOptions statementOptions;

    @Mixin
    dev.riffle.cli.option.McpOptions mcp = new dev.riffle.cli.option.McpOptions();

    @Option(names = "--demo", description = "Write live demo data while running: demo.orders (appended, tiered into "
            + "the lake) and demo.customers (upserted); the banner shows queries to try.")
    boolean demo;

    @Option(names = "--demo-rate", paramLabel = "N", defaultValue = "2000",
            description = "With --demo: orders a second (default: ${DEFAULT-VALUE}).")
    int demoRate;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (tabletServers < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--tablet-servers must be at least 1, got " + tabletServers);
        }
        if (port < 0 || port > 65535) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--port must be between 0 and 65535, got " + port);
        }
        if (httpPort < 0 || httpPort > 65535) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--http-port must be between 0 and 65535, got " + httpPort);
        }
        if (flightPort < 0 || flightPort > 65535) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--flight-port must be between 0 and 65535, got " + flightPort);
        }
        if (pgPort < 0 || pgPort > 65535) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--pg-port must be between 0 and 65535, got " + pgPort);
        }
        pgTls.check(spec.commandLine());
        statementOptions.check(spec.commandLine());
        Map<String, String> serviceOptions = new LinkedHashMap<>(Map.of("http.port", Integer.toString(httpPort),
                "flight.port", Integer.toString(flightPort), PgLocalService.PORT_OPTION, Integer.toString(pgPort)));
        pgTls.certificateChain().ifPresent(cert -> serviceOptions.put(PgLocalService.TLS_CERT_OPTION,
                cert.toAbsolutePath().toString()));
        pgTls.privateKey().ifPresent(key -> serviceOptions.put(PgLocalService.TLS_KEY_OPTION,
                key.toAbsolutePath().toString()));
        serviceOptions.put(GatewayLocalService.CONSOLE_OPTION, console.mode().label());
        if (demoRate < 1 || demoRate > 1_000_000) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--demo-rate must be between 1 and 1000000 orders a second, got " + demoRate);
        }
        if (demo) {
            serviceOptions.put(DemoLocalService.RATE_OPTION, Integer.toString(demoRate));
        }
        dev.riffle.mcp.tool.McpLimits mcpLimits = mcp.limits(spec.commandLine());
        serviceOptions.put(GatewayLocalService.MCP_ALLOW_WRITES_OPTION, Boolean.toString(mcpLimits.writesAllowed()));
        serviceOptions.put(GatewayLocalService.MCP_MAX_ROWS_OPTION, Integer.toString(mcpLimits.maxRows()));
        serviceOptions.put(GatewayLocalService.MCP_MAX_BYTES_OPTION, Integer.toString(mcpLimits.maxBytes()));
        Path dir = dataDir.toAbsolutePath().normalize();
        Path logFile = dir.resolve("logs").resolve("riffle.log");
        // Before the first logger exists, so that Fluss's and Paimon's logs land beside the data.
        if (logFile.getParent().toFile().mkdirs() || logFile.getParent().toFile().isDirectory()) {
            System.setProperty("riffle.log.file", logFile.toString());
        }
        PrintWriter out = spec.commandLine().getOut();
        CountDownLatch stop = new CountDownLatch(1);

        long started = System.nanoTime();
        LocalCluster.Builder builder = LocalCluster.builder()
                .dataDir(dir).tabletServers(tabletServers).coordinatorPort(port).lakeEnabled(!noLake);
        if (noLake && !lakeOptions.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--lake-option configures the lake, which --no-lake turns off: give one or the other");
        }
        for (String key : serverOptions.keySet()) {
            if (OWN_SERVER_OPTIONS.contains(key)) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--server-option " + key
                        + " is riffle local's own to set (see --port, --data-dir and --tablet-servers)");
            }
        }
        serverOptions.forEach(builder::serverConfig);
        try {
            lakeOptions.forEach(builder::lakeOption);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--lake-option: " + e.getMessage());
        }
        ServerLimits limits = statementOptions.limits(ServerLimits.DEFAULT);
        try (LocalCluster cluster = builder.start(); RunningStatements statements = statementOptions.statements();
                // One runtime for every surface: one session and one Fluss connection per principal, one
                // count of running statements, one deadline and one set of budgets.
                ServerRuntime runtime = ServerRuntime.builder("riffle local").clientConfig(cluster.clientConfig())
                        .limits(limits).statements(statements).open()) {
            LocalService.Shared shared = new LocalService.Shared(Map.of(RunningStatements.class, statements,
                    ServerLimits.class, limits, ServerRuntime.class, runtime));
            List<LocalService.Running> services = new ArrayList<>();
            Map<String, String> addresses = new LinkedHashMap<>();
            addresses.put("Fluss bootstrap servers", cluster.bootstrapServers());
            addresses.put("JDBC URL", "jdbc:riffle://" + cluster.bootstrapServers());
            addresses.put("Tablet servers", Integer.toString(tabletServers));
            addresses.put("Data directory", dir.toString());
            if (cluster.lakeEnabled()) {
                addresses.put("Paimon warehouse", cluster.lakeCatalogOptions().get("warehouse"));
            }
            ShutdownSignals.onStop(stop::countDown);
            try {
                for (LocalService service : ServiceLoader.load(LocalService.class)) {
                    LocalService.Running running = service.start(cluster, serviceOptions, shared);
                    services.add(running);
                    addresses.putAll(running.addresses());
                }
                addresses.put("Log file", logFile.toString());
                addresses.put("Heap limit", heapLimit());
                printReady(out, addresses, cluster.bootstrapServers(), System.nanoTime() - started);
                if (demo) {
                    printDemo(out, addresses, cluster.bootstrapServers());
                }
                out.println("Press Ctrl-C to stop.");
                out.flush();
                stop.await();
                out.println("Stopping...");
                out.flush();
            } finally {
                for (int i = services.size() - 1; i >= 0; i--) {
                    services.get(i).close();
                }
            }
        }
        out.println("Stopped.");
        out.flush();
        return 0;
    }

    /**
     * The JVM's heap limit, said at start: the cluster, the lake and the gateway share it, and a
     * process that reaches it exits (bin/riffle runs with -XX:+ExitOnOutOfMemoryError).
     */
    static String heapLimit() {
        long bytes = Runtime.getRuntime().maxMemory();
        String size = bytes >= 1L << 30
                ? String.format(java.util.Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
                : (bytes >> 20) + " MiB";
        return size + " (set with RIFFLE_JAVA_OPTS=-Xmx...)";
    }

    /** The demo's three queries, and each ready to paste into a surface. */
    private static void printDemo(PrintWriter out, Map<String, String> addresses, String bootstrap) {
        List<String> queries = DemoData.QUERIES;
        out.println();
        out.println("Demo data is being written to " + DemoData.ORDERS + " and " + DemoData.CUSTOMERS + ". Try:");
        queries.forEach(query -> out.println("  " + query + ";"));
        String psql = addresses.get("PostgreSQL (psql)");
        if (psql != null) {
            out.println("from psql:");
            out.println("  " + psql + " -c \"" + queries.get(0) + "\"");
        }
        out.println("from riffle sql:");
        out.println("  bin/riffle sql --bootstrap-servers " + bootstrap + " -e \"" + queries.get(1) + "\"");
        String gateway = addresses.get("HTTP gateway");
        if (gateway != null) {
            out.println("from curl:");
            out.println("  curl -s " + gateway + "/v1/sql -H 'Content-Type: application/json' -d '{\"sql\": \""
                    + queries.get(2) + "\"}'");
            out.println("or in the web console at " + gateway + "/ (demo.orders' offsets move as you watch).");
        }
        out.flush();
    }

    private static void printReady(PrintWriter out, Map<String, String> addresses, String bootstrap, long nanos) {
        out.printf("Riffle local is up in %.1f s%n", nanos / 1e9);
        int width = addresses.keySet().stream().mapToInt(String::length).max().orElse(0);
        addresses.forEach((name, value) -> out.printf("  %-" + width + "s  %s%n", name, value));
        out.println();
        out.println("Next: connect a Fluss client to " + bootstrap + ", query with");
        out.println("  bin/riffle sql --bootstrap-servers " + bootstrap);
        out.println("or read a table with");
        out.println("  bin/riffle read DB.TABLE --bootstrap-servers " + bootstrap);
    }
}
