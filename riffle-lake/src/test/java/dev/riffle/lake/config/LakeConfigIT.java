package dev.riffle.lake.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalClusterExtension.class)
class LakeConfigIT {

    @Test
    void discoversTheClustersLake(LocalCluster cluster, Connection connection) throws Exception {
        try (Admin admin = connection.getAdmin()) {
            assertThat(LakeConfig.discover(admin)).contains(new LakeConfig("paimon", cluster.lakeCatalogOptions()));
        }
    }
}
