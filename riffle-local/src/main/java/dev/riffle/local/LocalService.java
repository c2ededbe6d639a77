package dev.riffle.local;

import java.util.Map;

/**
 * Something {@code riffle local} runs next to the embedded cluster: the tiering service, the HTTP
 * gateway, the SQL endpoints. Implementations are found with {@link java.util.ServiceLoader}, so a
 * module adds itself to {@code riffle local} by shipping a
 * {@code META-INF/services/dev.riffle.local.LocalService} entry.
 *
 * <pre>{@code
 * public final class GatewayLocalService implements LocalService {
 *     public String name() { return "HTTP gateway"; }
 *     public Running start(LocalCluster cluster, Map<String, String> options) {
 *         Gateway gateway = Gateway.start(cluster.bootstrapServers(), 8080);
 *         return new Running(Map.of("HTTP gateway", gateway.url()), gateway);
 *     }
 * }
 * }</pre>
 */
public interface LocalService {

    /** A short human name, used in logs and errors. */
    String name();

    /**
     * Starts the service against a running cluster.
     *
     * @param options {@code riffle local} options addressed to services (e.g. {@code http.port})
     */
    Running start(LocalCluster cluster, Map<String, String> options) throws Exception;

    /** A started service: what to print for the user, and how to stop it. */
    record Running(Map<String, String> addresses, AutoCloseable stopper) implements AutoCloseable {
        public Running {
            addresses = Map.copyOf(addresses);
            java.util.Objects.requireNonNull(stopper, "stopper is null");
        }

        @Override
        public void close() throws Exception {
            stopper.close();
        }
    }
}
