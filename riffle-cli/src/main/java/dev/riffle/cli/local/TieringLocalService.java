package dev.riffle.cli.local;

import dev.riffle.lake.tiering.TieringService;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.LocalService;
import java.util.Map;

/** {@code riffle local} tiers its datalake-enabled tables into its Paimon warehouse. */
public final class TieringLocalService implements LocalService {

    @Override
    public String name() {
        return "tiering service";
    }

    @Override
    public Running start(LocalCluster cluster, Map<String, String> options) {
        if (!cluster.lakeEnabled()) {
            return new Running(Map.of(), () -> {});
        }
        TieringService tiering = TieringService.builder()
                .clientConfig(cluster.clientConfig())
                .lake("paimon", cluster.lakeCatalogOptions())
                .start();
        return new Running(Map.of("Tiering", "datalake-enabled tables tier into the warehouse"), tiering);
    }
}
