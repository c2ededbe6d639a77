package dev.riffle.cli.hosts;

import static org.awaitility.Awaitility.await;

import dev.riffle.cli.RiffleCli;
import dev.riffle.local.NetworkHosts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code riffle} command as its own JVM on one of the {@link NetworkHosts}, the way a user starts
 * it on a machine of its own; its output goes to {@code logs/<host>.log} of the data directory.
 */
final class RiffleProcess implements AutoCloseable {
    static final int HTTP_PORT = 8080;
    static final int FLIGHT_PORT = 31337;
    /** The Flight SQL ticket key every instance of the test shares, so any of them serves any endpoint. */
    static final String TICKET_KEY = "multi-host-test-ticket-key";

    private final Process process;
    private final Path log;
    private final String url;

    private RiffleProcess(Process process, Path log, String url) {
        this.process = process;
        this.log = log;
        this.url = url;
    }

    /**
     * {@code riffle serve} on the host's address, HTTP on port 8080 and Flight SQL on 31337 (the
     * shared {@link #TICKET_KEY}), no PostgreSQL port; returns once it is ready.
     */
    static RiffleProcess serve(NetworkHosts hosts, String host, String bootstrapServers, Path dataDir)
            throws IOException {
        return serve(hosts, host, bootstrapServers, dataDir, List.of());
    }

    /** {@link #serve(NetworkHosts, String, String, Path)} with more arguments, such as {@code --client-option}s. */
    static RiffleProcess serve(NetworkHosts hosts, String host, String bootstrapServers, Path dataDir,
            List<String> more) throws IOException {
        List<String> args = new ArrayList<>(List.of("serve", "--bootstrap-servers", bootstrapServers, "--http-host",
                hosts.address(host), "--http-port", Integer.toString(HTTP_PORT), "--flight-port",
                Integer.toString(FLIGHT_PORT), "--pg-port", "-1", "--auth", "none"));
        args.addAll(more);
        RiffleProcess serve = start(hosts, host, dataDir, "http://" + hosts.address(host) + ":" + HTTP_PORT, args);
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .failFast("riffle serve on " + host + " exited; see " + serve.log, () -> !serve.process.isAlive())
                .until(() -> client.send(HttpRequest.newBuilder(URI.create(serve.url + "/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
        return serve;
    }

    /** {@code riffle tier}: a tiering worker for the cluster, its lake found from the cluster's settings. */
    static RiffleProcess tier(NetworkHosts hosts, String host, String bootstrapServers, Path dataDir)
            throws IOException {
        return tier(hosts, host, bootstrapServers, dataDir, List.of());
    }

    /** {@link #tier(NetworkHosts, String, String, Path)} with more arguments, such as {@code --client-option}s. */
    static RiffleProcess tier(NetworkHosts hosts, String host, String bootstrapServers, Path dataDir,
            List<String> more) throws IOException {
        List<String> args = new ArrayList<>(List.of("tier", "--bootstrap-servers", bootstrapServers));
        args.addAll(more);
        return start(hosts, host, dataDir, "", args);
    }

    private static RiffleProcess start(NetworkHosts hosts, String host, Path dataDir, String url, List<String> args)
            throws IOException {
        List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                // Fluss's file system plugins, where bin/riffle would point the process too.
                "-Driffle.plugins.dir=" + System.getProperty("riffle.plugins.dir", "plugins"),
                "-cp", System.getProperty("java.class.path"), RiffleCli.class.getName()));
        java.addAll(args);
        Path log = Files.createDirectories(dataDir.resolve("logs")).resolve(host + ".log");
        ProcessBuilder builder = new ProcessBuilder(hosts.command(host, java)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("RIFFLE_FLIGHT_TICKET_KEY", TICKET_KEY);
        Process process = builder.start();
        return new RiffleProcess(process, log, url);
    }

    String url() {
        return url;
    }

    String output() throws IOException {
        return Files.readString(log);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** {@code kill -9}: no shutdown hook, no goodbye to the cluster. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        stop(process);
    }

    /** Stops a process this test started on a host: SIGTERM, then after 30 s SIGKILL. */
    static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
