package dev.riffle.gateway;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One gateway per test JVM, over the JVM's embedded cluster (from {@link LocalClusterExtension}),
 * handed to tests as an {@link Api}. Its limits are small so tests can cross them: 256 KiB bodies,
 * 50 keys per request.
 */
public final class GatewayExtension implements ParameterResolver {
    static final long MAX_BODY_BYTES = 256 * 1024;
    static final int MAX_KEYS = 50;
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(GatewayExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Api.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(Shared.class, key -> Shared.start(LocalClusterExtension.cluster(context)),
                        Shared.class)
                .api;
    }

    private static final class Shared implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        private final Gateway gateway;
        private final Api api;

        private Shared(Gateway gateway) {
            this.gateway = gateway;
            this.api = new Api(gateway);
        }

        static Shared start(LocalCluster cluster) {
            return new Shared(Gateway.builder()
                    .clientConfig(cluster.clientConfig())
                    .host("127.0.0.1")
                    .port(0)
                    .maxBodyBytes(MAX_BODY_BYTES)
                    .maxKeys(MAX_KEYS)
                    .scanTimeout(Duration.ofSeconds(60))
                    .start());
        }

        @Override
        public void close() throws Exception {
            gateway.close(); // fails if Arrow memory leaked
        }
    }
}
