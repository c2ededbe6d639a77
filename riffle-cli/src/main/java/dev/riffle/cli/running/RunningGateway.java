package dev.riffle.cli.running;

import static java.util.Objects.requireNonNull;

import java.net.URI;

/**
 * A Riffle HTTP gateway running on this machine without authentication, as {@code riffle local}
 * or {@code riffle serve} published it ({@link RunningGateways}): the process, the Fluss cluster
 * it serves and where it answers.
 *
 * <pre>{@code
 * Optional<RunningGateway> gateway = RunningGateways.atDefaultPlace().find("127.0.0.1:9123");
 * }</pre>
 */
public record RunningGateway(long pid, String bootstrapServers, URI url) {
    public RunningGateway {
        requireNonNull(bootstrapServers, "bootstrapServers is null");
        requireNonNull(url, "url is null");
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be positive, got " + pid);
        }
    }
}
