package dev.riffle.pgwire;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One PostgreSQL protocol server per test JVM, over the JVM's embedded cluster (from
 * {@link LocalClusterExtension}), on a free loopback port, handed to tests as itself.
 */
public final class PgServerExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(PgServerExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == PgWireServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(Shared.class, key -> Shared.start(LocalClusterExtension.cluster(context)),
                        Shared.class)
                .server;
    }

    private static final class Shared implements ExtensionContext.Store.CloseableResource {
        private final PgWireServer server;

        private Shared(PgWireServer server) {
            this.server = server;
        }

        static Shared start(LocalCluster cluster) {
            return new Shared(PgWireServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                    .start());
        }

        @Override
        public void close() {
            server.close(); // fails if Arrow memory leaked
        }
    }
}
