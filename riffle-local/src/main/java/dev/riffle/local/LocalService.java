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

    /**
     * Starts the service against a running cluster, with what the command shares among its
     * services (one registry that all the SQL surfaces count their statements in, say). By default
     * the service takes none of it.
     */
    default Running start(LocalCluster cluster, Map<String, String> options, Shared shared) throws Exception {
        return start(cluster, options);
    }

    /** Objects {@code riffle local} gives every service it starts, one per type. */
    final class Shared {
        private final Map<Class<?>, Object> objects;

        public Shared(Map<Class<?>, Object> objects) {
            objects.forEach((type, object) -> {
                if (!type.isInstance(object)) {
                    throw new IllegalArgumentException(object + " is no " + type.getName());
                }
            });
            this.objects = Map.copyOf(objects);
        }

        /** The shared object of {@code type}, when the command shares one. */
        public <T> java.util.Optional<T> get(Class<T> type) {
            return java.util.Optional.ofNullable(objects.get(type)).map(type::cast);
        }
    }

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
