package dev.riffle.core.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.messages.MetadataResponse;
import org.apache.fluss.rpc.messages.PbPartitionMetadata;
import org.apache.fluss.rpc.messages.PbTableMetadata;
import org.junit.jupiter.api.Test;

/** When the coordinator's answer says a new table's (or partition's) buckets all have leaders. */
class TableReadinessTest {
    private static final TablePath PATH = TablePath.of("shop", "orders");

    @Test
    void aTableIsReadyOnceEveryBucketHasALeader() {
        assertThat(TableReadiness.leadersKnown(new MetadataResponse(), PATH)).as("not in the answer yet").isFalse();

        MetadataResponse electing = new MetadataResponse();
        PbTableMetadata table = table(electing, PATH);
        table.addBucketMetadata().setBucketId(0).setLeaderId(1);
        table.addBucketMetadata().setBucketId(1); // no leader yet
        assertThat(TableReadiness.leadersKnown(electing, PATH)).isFalse();

        MetadataResponse elected = new MetadataResponse();
        PbTableMetadata led = table(elected, PATH);
        led.addBucketMetadata().setBucketId(0).setLeaderId(1);
        led.addBucketMetadata().setBucketId(1).setLeaderId(0);
        assertThat(TableReadiness.leadersKnown(elected, PATH)).isTrue();
        assertThat(TableReadiness.leadersKnown(elected, TablePath.of("shop", "other"))).as("another table").isFalse();
    }

    @Test
    void aPartitionIsReadyOnceItHasBucketsAndEachHasALeader() {
        MetadataResponse none = new MetadataResponse();
        assertThat(TableReadiness.leadersKnown(none, "2024")).isFalse();

        MetadataResponse empty = new MetadataResponse();
        partition(empty, "2024");
        assertThat(TableReadiness.leadersKnown(empty, "2024")).as("no buckets assigned yet").isFalse();

        MetadataResponse electing = new MetadataResponse();
        PbPartitionMetadata partition = partition(electing, "2024");
        partition.addBucketMetadata().setBucketId(0);
        assertThat(TableReadiness.leadersKnown(electing, "2024")).isFalse();

        MetadataResponse elected = new MetadataResponse();
        partition(elected, "2024").addBucketMetadata().setBucketId(0).setLeaderId(2);
        assertThat(TableReadiness.leadersKnown(elected, "2024")).isTrue();
        assertThat(TableReadiness.leadersKnown(elected, "2025")).isFalse();
    }

    private static PbTableMetadata table(MetadataResponse response, TablePath path) {
        PbTableMetadata table = response.addTableMetadata().setTableId(7).setSchemaId(1).setTableJson(new byte[0])
                .setCreatedTime(0).setModifiedTime(0);
        table.setTablePath().setDatabaseName(path.getDatabaseName()).setTableName(path.getTableName());
        return table;
    }

    private static PbPartitionMetadata partition(MetadataResponse response, String name) {
        return response.addPartitionMetadata().setTableId(7).setPartitionName(name).setPartitionId(3);
    }
}
