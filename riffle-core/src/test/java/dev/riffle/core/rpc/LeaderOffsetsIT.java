package dev.riffle.core.rpc;

import static dev.riffle.core.TestTables.EVENTS;
import static dev.riffle.core.TestTables.appendEvents;
import static dev.riffle.core.TestTables.create;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.List;
import java.util.Optional;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Offsets asked of the leaders the client already knows are the offsets Fluss's Admin lists. */
@ExtendWith(LocalClusterExtension.class)
class LeaderOffsetsIT {

    @Test
    void theLeadersAnswerWhatTheAdminLists(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("leader_offsets");
        create(connection, path, EVENTS, 3);
        appendEvents(connection, path, 0, 300, 40);
        FlussConnection fluss = (FlussConnection) connection;
        long tableId = connection.getAdmin().getTableInfo(path).get().getTableId();
        List<Integer> buckets = List.of(0, 1, 2);
        // The metadata knows no leader of a table it never looked up: the Admin, which looks, is asked then.
        assertThat(LeaderOffsets.list(fluss.getMetadataUpdater(), tableId + 1_000, Optional.empty(), buckets,
                new OffsetSpec.LatestSpec())).isEmpty();

        fluss.getMetadataUpdater().updateTableOrPartitionMetadata(path, null);
        for (OffsetSpec spec : List.of(new OffsetSpec.EarliestSpec(), new OffsetSpec.LatestSpec())) {
            var listed = connection.getAdmin().listOffsets(path, buckets, spec).all().get();
            var asked = LeaderOffsets.list(fluss.getMetadataUpdater(), tableId, Optional.empty(), buckets, spec)
                    .orElseThrow().get();
            assertThat(asked).isEqualTo(listed);
        }
        var latest = LeaderOffsets.list(fluss.getMetadataUpdater(), tableId, Optional.empty(), buckets,
                new OffsetSpec.LatestSpec()).orElseThrow().get();
        assertThat(latest.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(300);
    }
}
