package dev.riffle.core.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.TestTables;
import dev.riffle.local.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop offset that a follower (one fetch round behind) gave is raised to what the bucket's
 * leader holds, by asking every replica; a replica that is down does not hold the answer up.
 */
class ReplicaWatermarksIT {

    @Test
    void anUnderstatedLatestOffsetIsRaisedToTheLeadersHighWatermark(@TempDir Path dataDir) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).tabletServers(3)
                .lakeEnabled(false).start();
                FlussConnection connection = (FlussConnection) ConnectionFactory.createConnection(
                        cluster.clientConfig())) {
            TablePath path = TablePath.of("fluss", "replica_watermarks");
            TestTables.create(connection, path, TestTables.EVENTS, 2);
            TestTables.appendEvents(connection, path, 0, 500, 100); // acks=all: every replica has them
            TableInfo table = connection.getAdmin().getTableInfo(path).get();
            connection.getMetadataUpdater().updateTableOrPartitionMetadata(path, null);
            Map<TableBucket, Long> leaders = new HashMap<>();
            connection.getAdmin().listOffsets(path, List.of(0, 1), new OffsetSpec.LatestSpec()).all().get()
                    .forEach((bucket, offset) -> leaders.put(new TableBucket(table.getTableId(), bucket), offset));
            assertThat(leaders.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(500);

            // What a follower that has not yet heard of the writes' high watermark answers.
            Map<TableBucket, Long> understated = new HashMap<>();
            leaders.keySet().forEach(bucket -> understated.put(bucket, 0L));
            assertThat(ReplicaWatermarks.raise(connection.getMetadataUpdater(), understated)).isEqualTo(leaders);
            // The leaders' own answers are the highest there are: nothing moves.
            assertThat(ReplicaWatermarks.raise(connection.getMetadataUpdater(), leaders)).isEqualTo(leaders);

            // A replica that is down is left out, within the bounded wait, and the live leaders still answer.
            Set<Integer> leading = leaders.keySet().stream()
                    .map(bucket -> connection.getMetadataUpdater().leaderFor(path, bucket))
                    .collect(Collectors.toSet());
            int follower = cluster.runningTabletServers().stream().filter(id -> !leading.contains(id)).findFirst()
                    .orElseThrow(() -> new AssertionError("every server leads a bucket: " + leading));
            cluster.stopTabletServer(follower);
            long started = System.nanoTime();
            assertThat(ReplicaWatermarks.raise(connection.getMetadataUpdater(), understated)).isEqualTo(leaders);
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("asking a stopped replica waits at most the bounded wait")
                    .isLessThan(ReplicaWatermarks.WAIT.plusSeconds(3));
        }
    }
}
