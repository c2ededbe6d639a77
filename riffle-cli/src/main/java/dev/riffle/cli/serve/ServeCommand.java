package dev.riffle.cli.serve;

import dev.riffle.cli.ShutdownSignals;
import dev.riffle.gateway.Gateway;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code riffle serve}: the HTTP gateway (with {@code POST /v1/sql}) over an existing Fluss
 * cluster, until Ctrl-C or SIGTERM; then it closes the gateway and exits 0.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve the HTTP gateway (REST + SQL, JSON and Arrow) over an existing Fluss cluster until Ctrl-C.")
public final class ServeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9123",
            description = "Fluss bootstrap servers (default: ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "8080",
            description = "The gateway's port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int httpPort;

    @Option(names = "--http-host", paramLabel = "HOST", defaultValue = "0.0.0.0",
            description = "The interface to listen on (default: ${DEFAULT-VALUE}, every interface).")
    String httpHost;

    private final CountDownLatch stop = new CountDownLatch(1);
    private volatile Gateway running;

    @Override
    public Integer call() throws Exception {
        if (httpPort < 0 || httpPort > 65535) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--http-port must be between 0 and 65535, got " + httpPort);
        }
        PrintWriter out = spec.commandLine().getOut();
        ShutdownSignals.onStop(stop::countDown);
        try (Gateway gateway = Gateway.builder().bootstrapServers(bootstrapServers).host(httpHost).port(httpPort)
                .start()) {
            running = gateway;
            out.println("Riffle HTTP gateway over Fluss " + bootstrapServers);
            out.println("  HTTP gateway:  " + gateway.url() + "   (routes: " + gateway.url() + "/openapi.json)");
            out.println("  SQL over HTTP: POST " + gateway.url() + "/v1/sql");
            out.println("  JDBC URL:      " + gateway.jdbcUrl());
            out.println("Press Ctrl-C to stop.");
            out.flush();
            stop.await();
            out.println("Stopping...");
            out.flush();
        } finally {
            running = null;
        }
        out.println("Stopped.");
        out.flush();
        return 0;
    }

    /** The gateway while it serves (for tests that run the command in-process), else null. */
    public Gateway gateway() {
        return running;
    }

    /** Asks a running command to stop, as Ctrl-C does. */
    public void stop() {
        stop.countDown();
    }
}
