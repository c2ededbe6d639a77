package dev.riffle.lake.tiering;

import static dev.riffle.lake.tiering.TieringServiceIT.LOG;
import static dev.riffle.lake.tiering.TieringServiceIT.append;
import static dev.riffle.lake.tiering.TieringServiceIT.createLakeTable;
import static dev.riffle.lake.tiering.TieringServiceIT.range;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.lake.LakeTables;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalClusterExtension.class)
class TieringRecoveryIT {

    @Test
    void crashBetweenTheLakeCommitAndTheFlussCommitLosesNothingAndDuplicatesNothing(LocalCluster cluster,
            Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("crash");
        createLakeTable(connection, path, LOG, 2);
        append(connection, path, 0, 500);

        CountDownLatch reached = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        TieringService crashing = TieringService.builder().clientConfig(cluster.clientConfig())
                .lake("paimon", cluster.lakeCatalogOptions()).pollInterval(Duration.ofMillis(200))
                .checkpoint((table, snapshotId) -> {
                    if (table.equals(path)) {
                        reached.countDown();
                        never.await(); // the process "dies" here: the Fluss commit never happens
                    }
                })
                .start();
        try {
            assertThat(reached.await(60, TimeUnit.SECONDS)).as("the round reached the lake commit").isTrue();
            // The lake has the rows, Fluss does not know it.
            assertThat(LakeTables.rows(cluster.lakeCatalogOptions(), path, row -> row.getInt(0))).hasSize(500);
            try (Admin admin = connection.getAdmin()) {
                assertThat(admin.getLatestLakeSnapshot(path)).failsWithin(Duration.ofSeconds(10));
            }
        } finally {
            crashing.close();
        }
        // The round that "died" between the commits returned its Arrow memory all the same.
        LakeReadBack.assertNoArrowMemoryLeft(crashing.allocator());

        append(connection, path, 500, 800);
        BufferAllocator tieringMemory;
        try (TieringService recovered = TieringServiceIT.start(cluster)) {
            tieringMemory = recovered.allocator();
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(TieringServiceIT.lakeIds(cluster, path))
                    .containsExactlyInAnyOrderElementsOf(range(0, 800)));
        }
        LakeReadBack.assertNoArrowMemoryLeft(tieringMemory);
    }

    @Test
    void twoServicesShareTablesAndTierEveryBucketOnce(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        List<TablePath> tables = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            TablePath path = names.table("shared");
            createLakeTable(connection, path, LOG, 3);
            append(connection, path, 0, 300);
            tables.add(path);
        }
        try (TieringService first = TieringServiceIT.start(cluster);
                TieringService second = TieringServiceIT.start(cluster)) {
            for (TablePath path : tables) {
                append(connection, path, 300, 600);
            }
            for (TablePath path : tables) {
                await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> assertThat(TieringServiceIT.lakeIds(cluster, path))
                        .containsExactlyInAnyOrderElementsOf(range(0, 600)));
                // Per bucket, the lake holds offsets 0..n-1, each once: contiguous, nothing tiered twice.
                Map<Integer, List<Long>> offsets = new HashMap<>();
                LakeTables.rows(cluster.lakeCatalogOptions(), path, row -> new long[] {row.getInt(2), row.getLong(3)})
                        .forEach(r -> offsets.computeIfAbsent((int) r[0], b -> new ArrayList<>()).add(r[1]));
                offsets.forEach((bucket, list) -> {
                    list.sort(null);
                    for (int i = 0; i < list.size(); i++) {
                        assertThat(list.get(i)).as("offset %s of bucket %s", i, bucket).isEqualTo((long) i);
                    }
                });
            }
            assertThat(first.tieredTables().size() + second.tieredTables().size()).isGreaterThanOrEqualTo(3);
        }
    }
}
