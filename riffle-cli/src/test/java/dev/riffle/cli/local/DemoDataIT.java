package dev.riffle.cli.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.lake.tiering.TieringService;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.demo.DemoData;
import dev.riffle.local.junit.LocalClusterExtension;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.metadata.TableInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code riffle local --demo}'s data as a newcomer sees it: orders and customers fill, the orders
 * tier into the lake within a minute, the union read is the lake plus the log past it, and once
 * the generator stops nothing more is written.
 */
@ExtendWith(LocalClusterExtension.class)
class DemoDataIT {
    @Test
    void tablesFillTierAndStopCleanly(LocalCluster cluster, Connection connection) throws Exception {
        Class.forName("dev.riffle.sql.jdbc.RiffleDriver");
        try (TieringService tiering = TieringService.builder().clientConfig(cluster.clientConfig())
                        .lake("paimon", cluster.lakeCatalogOptions()).start();
                java.sql.Connection sql = DriverManager.getConnection("jdbc:riffle://" + cluster.bootstrapServers());
                Statement statement = sql.createStatement();
                Admin admin = connection.getAdmin()) {
            DemoData demo = DemoData.start(cluster.clientConfig(), true, 2_000);
            long written;
            try {
                // The count grows while the generator runs.
                long first = await().atMost(Duration.ofSeconds(30)).until(() -> count(statement, DemoData.QUERIES.get(0)),
                        n -> n > 0);
                await().atMost(Duration.ofSeconds(30)).until(() -> count(statement, DemoData.QUERIES.get(0)),
                        n -> n > first);
                // Every customer is there, looked up by key.
                try (ResultSet customer = statement.executeQuery(DemoData.QUERIES.get(1))) {
                    assertThat(customer.next()).isTrue();
                    assertThat(customer.getString("name")).isEqualTo("customer-42");
                }
                assertThat(count(statement, "SELECT count(*) FROM demo.customers")).isEqualTo(DemoData.CUSTOMER_COUNT);
                // The orders reach the lake within a minute (freshness 10 s).
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(
                        () -> admin.getLatestLakeSnapshot(DemoData.ORDERS).get().getSnapshotId() >= 0);
                try (ResultSet statuses = statement.executeQuery(DemoData.QUERIES.get(2))) {
                    assertThat(statuses.next()).isTrue();
                    assertThat(statuses.getLong("orders")).isPositive();
                }
            } finally {
                demo.close();
            }
            written = demo.ordersWritten();
            assertThat(written).isPositive();
            assertThat(demo.customerChanges()).isGreaterThan(DemoData.CUSTOMER_COUNT);

            // After close, everything written is readable and nothing more comes.
            TableInfo orders = admin.getTableInfo(DemoData.ORDERS).get();
            long latest = latestOffsets(admin, orders);
            assertThat(latest).isEqualTo(written);
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                    .until(() -> latestOffsets(admin, orders) == written);

            // The union read is the lake snapshot plus the log past the offsets it records.
            long lakeOffsets = admin.getLatestLakeSnapshot(DemoData.ORDERS).get().getTableBucketsOffset().values()
                    .stream().mapToLong(Long::longValue).sum();
            long lakeRows = count(statement, "SELECT count(*) FROM demo.\"orders$lake\"");
            assertThat(lakeRows).isEqualTo(lakeOffsets).isPositive();
            assertThat(count(statement, DemoData.QUERIES.get(0))).isEqualTo(lakeRows + (latest - lakeOffsets))
                    .isEqualTo(written);
            assertThat(count(statement, "SELECT count(*) FROM demo.\"orders$log\"")).isEqualTo(written);
        }
    }

    private static long count(Statement statement, String sql) throws Exception {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getLong(1);
        }
    }

    private static long latestOffsets(Admin admin, TableInfo table) throws Exception {
        long sum = 0;
        java.util.List<Integer> buckets = java.util.stream.IntStream.range(0, table.getNumBuckets()).boxed().toList();
        for (long offset : admin.listOffsets(table.getTablePath(), buckets, new OffsetSpec.LatestSpec()).all().get()
                .values()) {
            sum += offset;
        }
        return sum;
    }
}
