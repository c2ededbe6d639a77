package dev.riffle.core.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.metadata.TableBucket;
import org.junit.jupiter.api.Test;

class LogBatchTest {

    @Test
    void slicingKeepsBucketPartitionAndOffsetsAndFreesEverything() {
        try (BufferAllocator allocator = new RootAllocator()) {
            BigIntVector values = new BigIntVector("v", allocator);
            values.allocateNew(10);
            for (int i = 0; i < 10; i++) {
                values.set(i, 100 + i);
            }
            values.setValueCount(10);
            TableBucket bucket = new TableBucket(5L, 9L, 2);
            try (LogBatch batch = new LogBatch(bucket, Optional.of("2024-06-01"), 40, 1234L,
                    new VectorSchemaRoot(List.<FieldVector>of(values)))) {
                try (LogBatch sliced = batch.slice(3, 4)) {
                    assertThat(sliced.bucket()).isEqualTo(bucket);
                    assertThat(sliced.partitionName()).contains("2024-06-01");
                    assertThat(sliced.baseOffset()).isEqualTo(43);
                    assertThat(sliced.endOffset()).isEqualTo(47);
                    assertThat(sliced.commitTimestamp()).isEqualTo(1234L);
                    assertThat(sliced.rowCount()).isEqualTo(4);
                    assertThat(((BigIntVector) sliced.root().getVector("v")).get(0)).isEqualTo(103);
                    assertThat(((BigIntVector) sliced.root().getVector("v")).get(3)).isEqualTo(106);
                }
                assertThatThrownBy(() -> batch.slice(8, 3)).isInstanceOf(IndexOutOfBoundsException.class);
                assertThatThrownBy(() -> batch.slice(0, 0)).isInstanceOf(IndexOutOfBoundsException.class);
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }
}
