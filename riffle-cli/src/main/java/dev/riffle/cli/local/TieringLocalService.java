package dev.riffle.cli.local;

import dev.riffle.lake.tiering.TieringService;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.LocalService;
import dev.riffle.server.ServerRuntime;
import dev.riffle.server.session.FlussConnections;
import java.util.Map;
import java.util.Optional;

/** {@code riffle local} tiers its datalake-enabled tables into its Paimon warehouse. */
public final class TieringLocalService implements LocalService {

    @Override
    public String name() {
        return "tiering service";
    }

    @Override
    public Running start(LocalCluster cluster, Map<String, String> options) {
        return start(cluster, options, new Shared(Map.of()));
    }

    /** As {@link #start(LocalCluster, Map)}, its Fluss connection counted with the servers' (in {@code /metrics}). */
    @Override
    public Running start(LocalCluster cluster, Map<String, String> options, Shared shared) {
        if (!cluster.lakeEnabled()) {
            return new Running(Map.of(), () -> {});
        }
        TieringService tiering = TieringService.builder()
                .clientConfig(cluster.clientConfig())
                .lake("paimon", cluster.lakeCatalogOptions())
                .start();
        // The service holds one connection from start to close.
        Optional<FlussConnections.Held> counted = shared.get(ServerRuntime.class)
                .map(runtime -> runtime.connections().opened(FlussConnections.TIERING));
        return new Running(Map.of("Tiering", "datalake-enabled tables tier into the warehouse"), () -> {
            try (tiering) {
                counted.ifPresent(FlussConnections.Held::close);
            }
        });
    }
}
