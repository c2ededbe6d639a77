package dev.riffle.cli.local;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.LocalService;
import dev.riffle.server.ServerBuilder;
import dev.riffle.server.ServerRuntime;
import dev.riffle.server.session.ServerLimits;
import dev.riffle.server.statement.RunningStatements;
import java.util.Optional;

/**
 * Where a server surface of {@code riffle local} runs: on the runtime the command shares among
 * its surfaces when it shares one (one session and one Fluss connection per principal, whichever
 * surface), else on a connection of its own to the cluster, with the shared statements and limits.
 *
 * <pre>{@code
 * PgWireServer pg = LocalSurfaces.serve(PgWireServer.builder(), cluster, shared).port(5432).start();
 * }</pre>
 */
final class LocalSurfaces {
    private LocalSurfaces() {}

    static <B extends ServerBuilder<B>> B serve(B builder, LocalCluster cluster, LocalService.Shared shared) {
        Optional<ServerRuntime> runtime = shared.get(ServerRuntime.class);
        if (runtime.isPresent()) {
            return builder.sharing(runtime.get());
        }
        builder.clientConfig(cluster.clientConfig()).limits(shared.get(ServerLimits.class).orElse(ServerLimits.DEFAULT));
        shared.get(RunningStatements.class).ifPresent(builder::statements);
        return builder;
    }
}
