package dev.riffle.lake.tiering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.schema.TableSchemas;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/** The planner's rules on hand-made inputs: no cluster. */
class TieringPlannerTest {
    private static final long TABLE_ID = 42;
    private static final TablePath PATH = TablePath.of("shop", "orders");
    private static final Schema LOG = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("dt", DataTypes.STRING()).build();
    private static final Schema PK = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("dt", DataTypes.STRING()).primaryKey("id", "dt").build();

    @Test
    void neverTieredPrimaryKeyTableStartsEachBucketFromItsKvSnapshot() {
        TableInfo table = table(PK, 2, false);
        KvSnapshots snapshots = new KvSnapshots(TABLE_ID, null, Map.of(0, 7L, 1, 8L), Map.of(0, 100L, 1, 60L));
        TieringPlan plan = TieringPlanner.plan(new TieringInputs(table, Map.of(),
                List.of(TieringInputs.PartitionOffsets.unpartitioned(Map.of(0, 150L, 1, 60L), Optional.of(snapshots)))));

        assertThat(plan.spans()).containsExactly(
                new BucketSpan.KvSnapshot(bucket(0), Optional.empty(), 7, 100),
                new BucketSpan.KvSnapshot(bucket(1), Optional.empty(), 8, 60));
        // The lake then holds each bucket up to its snapshot's offset; the log past it comes next round.
        assertThat(plan.spans()).extracting(BucketSpan::endOffset).containsExactly(100L, 60L);
        assertThat(plan.lagOffsets()).isEqualTo(160);
    }

    @Test
    void neverTieredPrimaryKeyBucketWithoutKvSnapshotReadsItsLogFromTheEarliestOffset() {
        TableInfo table = table(PK, 2, false);
        // Bucket 0 has a snapshot, bucket 1 none yet.
        KvSnapshots snapshots = new KvSnapshots(TABLE_ID, null, Map.of(0, 3L), Map.of(0, 40L));
        TieringPlan plan = TieringPlanner.plan(new TieringInputs(table, Map.of(),
                List.of(TieringInputs.PartitionOffsets.unpartitioned(Map.of(0, 50L, 1, 30L), Optional.of(snapshots)))));

        assertThat(plan.spans()).containsExactly(
                new BucketSpan.KvSnapshot(bucket(0), Optional.empty(), 3, 40),
                new BucketSpan.LogRange(bucket(1), Optional.empty(), Optional.empty(), 30));
    }

    @Test
    void primaryKeyTableWithoutAnyKvSnapshotReadsTheLog() {
        TableInfo table = table(PK, 1, false);
        KvSnapshots none = new KvSnapshots(TABLE_ID, null, Map.of(), Map.of());
        TieringPlan plan = TieringPlanner.plan(new TieringInputs(table, Map.of(),
                List.of(TieringInputs.PartitionOffsets.unpartitioned(Map.of(0, 12L), Optional.of(none)))));

        assertThat(plan.spans()).containsExactly(new BucketSpan.LogRange(bucket(0), Optional.empty(), Optional.empty(), 12));
        assertThat(plan.lagOffsets()).isEqualTo(12);
    }

    @Test
    void aPrimaryKeyBucketTheLakeHoldsContinuesFromTheLakeOffsetNotFromItsKvSnapshot() {
        TableInfo table = table(PK, 1, false);
        KvSnapshots snapshots = new KvSnapshots(TABLE_ID, null, Map.of(0, 9L), Map.of(0, 500L));
        TieringPlan plan = TieringPlanner.plan(new TieringInputs(table, Map.of(bucket(0), 300L),
                List.of(TieringInputs.PartitionOffsets.unpartitioned(Map.of(0, 600L), Optional.of(snapshots)))));

        assertThat(plan.spans()).containsExactly(new BucketSpan.LogRange(bucket(0), Optional.empty(), Optional.of(300L), 600));
    }

    @Test
    void partiallyTieredLogTableContinuesEachBucketWhereTheLakeStops() {
        TableInfo table = table(LOG, 3, false);
        // Bucket 0 is tiered up to 100 of 250, bucket 1 never, bucket 2 up to 10 of 11.
        TieringPlan plan = TieringPlanner.plan(new TieringInputs(table, Map.of(bucket(0), 100L, bucket(2), 10L),
                List.of(TieringInputs.PartitionOffsets.unpartitioned(Map.of(0, 250L, 1, 40L, 2, 11L), Optional.empty()))));

        assertThat(plan.spans()).containsExactly(
                new BucketSpan.LogRange(bucket(0), Optional.empty(), Optional.of(100L), 250),
                new BucketSpan.LogRange(bucket(1), Optional.empty(), Optional.empty(), 40),
                new BucketSpan.LogRange(bucket(2), Optional.empty(), Optional.of(10L), 11));
        assertThat(plan.lagOffsets()).isEqualTo(150 + 40 + 1);
    }

    @Test
    void bucketsWithNothingNewHaveNoSpan() {
        TableInfo table = table(LOG, 4, false);
        // 0: tiered to its end; 1: empty log; 2: not even listed; 3: lake ahead of the listed end (a stale listing).
        TieringPlan plan = TieringPlanner.plan(new TieringInputs(table, Map.of(bucket(0), 70L, bucket(3), 20L),
                List.of(TieringInputs.PartitionOffsets.unpartitioned(Map.of(0, 70L, 1, 0L, 3, 15L), Optional.empty()))));

        assertThat(plan.isEmpty()).isTrue();
        assertThat(plan.lagOffsets()).isZero();
    }

    @Test
    void primaryKeyTableWhoseEveryBucketTheLakeHoldsNeedsNoKvSnapshots() {
        TableInfo table = table(PK, 2, false);
        Map<TableBucket, Long> lake = Map.of(bucket(0), 5L, bucket(1), 5L);

        assertThat(TieringPlanner.needsKvSnapshots(table, Optional.empty(), lake)).isFalse();
        assertThat(TieringPlanner.needsKvSnapshots(table, Optional.empty(), Map.of(bucket(0), 5L))).isTrue();
        assertThat(TieringPlanner.needsKvSnapshots(table(LOG, 2, false), Optional.empty(), Map.of())).isFalse();
        // Buckets are per partition: the lake holding partition 1's buckets says nothing of partition 2's.
        TableInfo partitioned = table(PK, 1, true);
        Map<TableBucket, Long> partitionOne = Map.of(new TableBucket(TABLE_ID, 1L, 0), 5L);
        assertThat(TieringPlanner.needsKvSnapshots(partitioned, Optional.of(1L), partitionOne)).isFalse();
        assertThat(TieringPlanner.needsKvSnapshots(partitioned, Optional.of(2L), partitionOne)).isTrue();

        TieringPlan plan = TieringPlanner.plan(new TieringInputs(table, lake,
                List.of(TieringInputs.PartitionOffsets.unpartitioned(Map.of(0, 9L, 1, 5L), Optional.empty()))));
        assertThat(plan.spans()).containsExactly(new BucketSpan.LogRange(bucket(0), Optional.empty(), Optional.of(5L), 9));
    }

    @Test
    void neverTieredPrimaryKeyBucketWithoutKvSnapshotsInTheInputsIsAnError() {
        TableInfo table = table(PK, 1, false);
        TieringInputs inputs = new TieringInputs(table, Map.of(),
                List.of(TieringInputs.PartitionOffsets.unpartitioned(Map.of(0, 12L), Optional.empty())));

        assertThatThrownBy(() -> TieringPlanner.plan(inputs)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Bucket 0").hasMessageContaining("shop.orders").hasMessageContaining("KV snapshots");
    }

    @Test
    void partitionedTablePlansTheBucketsOfEveryPartition() {
        TableInfo table = table(PK, 2, true);
        TieringInputs.Partition may = new TieringInputs.Partition(11, "2024-05");
        TieringInputs.Partition june = new TieringInputs.Partition(12, "2024-06");
        TableBucket may0 = new TableBucket(TABLE_ID, 11L, 0);
        TableBucket may1 = new TableBucket(TABLE_ID, 11L, 1);
        TableBucket june0 = new TableBucket(TABLE_ID, 12L, 0);
        TableBucket june1 = new TableBucket(TABLE_ID, 12L, 1);
        // May is tiered (bucket 0 fully, bucket 1 partly); June is new: bucket 0 has a KV snapshot, bucket 1 not.
        KvSnapshots juneSnapshots = new KvSnapshots(TABLE_ID, 12L, Map.of(0, 4L), Map.of(0, 25L));
        TieringPlan plan = TieringPlanner.plan(new TieringInputs(table, Map.of(may0, 80L, may1, 30L), List.of(
                new TieringInputs.PartitionOffsets(Optional.of(may), Map.of(0, 80L, 1, 45L), Optional.empty()),
                new TieringInputs.PartitionOffsets(Optional.of(june), Map.of(0, 30L, 1, 7L), Optional.of(juneSnapshots)))));

        assertThat(plan.spans()).containsExactly(
                new BucketSpan.LogRange(may1, Optional.of("2024-05"), Optional.of(30L), 45),
                new BucketSpan.KvSnapshot(june0, Optional.of("2024-06"), 4, 25),
                new BucketSpan.LogRange(june1, Optional.of("2024-06"), Optional.empty(), 7));
        assertThat(plan.lagOffsets()).isEqualTo(15 + 25 + 7);
    }

    @Test
    void aLakeOffsetOfAnotherPartitionWithTheSameBucketIdDoesNotCount() {
        TableInfo table = table(LOG, 1, true);
        TieringInputs.Partition june = new TieringInputs.Partition(12, "2024-06");
        TieringPlan plan = TieringPlanner.plan(new TieringInputs(table, Map.of(new TableBucket(TABLE_ID, 11L, 0), 50L),
                List.of(new TieringInputs.PartitionOffsets(Optional.of(june), Map.of(0, 50L), Optional.empty()))));

        assertThat(plan.spans()).containsExactly(
                new BucketSpan.LogRange(new TableBucket(TABLE_ID, 12L, 0), Optional.of("2024-06"), Optional.empty(), 50));
    }

    @Test
    void inputsMustMatchWhetherTheTableIsPartitioned() {
        var unpartitioned = TieringInputs.PartitionOffsets.unpartitioned(Map.of(0, 1L), Optional.empty());
        var may = new TieringInputs.PartitionOffsets(Optional.of(new TieringInputs.Partition(11, "2024-05")),
                Map.of(0, 1L), Optional.empty());

        assertThatThrownBy(() -> new TieringInputs(table(LOG, 1, true), Map.of(), List.of(unpartitioned)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is partitioned");
        assertThatThrownBy(() -> new TieringInputs(table(LOG, 1, false), Map.of(), List.of(may)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not partitioned");
        assertThatThrownBy(() -> new TieringInputs(table(LOG, 1, true), Map.of(), List.of(may, may)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("appears twice");
        // A partitioned table without partitions yet has nothing to plan.
        assertThat(TieringPlanner.plan(new TieringInputs(table(LOG, 1, true), Map.of(), List.of())).isEmpty()).isTrue();
    }

    @Test
    void aLogRangeIsNeverEmpty() {
        assertThatThrownBy(() -> new BucketSpan.LogRange(bucket(0), Optional.empty(), Optional.of(5L), 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[5, 5)");
    }

    private static TableBucket bucket(int id) {
        return new TableBucket(TABLE_ID, id);
    }

    private static TableInfo table(Schema schema, int buckets, boolean partitioned) {
        TableDescriptor.Builder descriptor = TableDescriptor.builder().schema(schema).distributedBy(buckets, "id");
        if (partitioned) {
            descriptor.partitionedBy("dt");
        }
        return TableInfo.of(PATH, TABLE_ID, TableSchemas.FIRST_SCHEMA_ID, descriptor.build(), 0, 0);
    }
}
