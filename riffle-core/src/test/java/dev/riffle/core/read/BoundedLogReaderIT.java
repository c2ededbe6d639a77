package dev.riffle.core.read;

import static dev.riffle.core.TestTables.EVENTS;
import static dev.riffle.core.TestTables.appendEvents;
import static dev.riffle.core.TestTables.create;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.Riffle;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalClusterExtension.class)
class BoundedLogReaderIT {
    private BufferAllocator allocator;

    @BeforeEach
    void allocator() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void noLeaks() {
        assertThat(allocator.getAllocatedMemory()).as("Arrow bytes still allocated after close").isZero();
        allocator.close();
    }

    @Test
    void readsEveryRowOfThreeBucketsWrittenInManyFlushes(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("events");
        create(connection, path, EVENTS, 3);
        appendEvents(connection, path, 0, 10_000, 200);

        List<Integer> ids = new ArrayList<>();
        Map<Integer, Long> nextOffsetPerBucket = new HashMap<>();
        try (Riffle riffle = Riffle.using(connection, allocator);
                BoundedLogReader reader = riffle.table(path).read().createReader()) {
            while (reader.hasNext()) {
                try (LogBatch batch = reader.next()) {
                    assertThat(batch.rowCount()).isPositive();
                    int bucket = batch.bucket().getBucket();
                    // Batches of a bucket follow each other without gaps or overlaps.
                    assertThat(batch.baseOffset()).isEqualTo(nextOffsetPerBucket.getOrDefault(bucket, 0L));
                    nextOffsetPerBucket.put(bucket, batch.endOffset());
                    IntVector id = (IntVector) batch.root().getVector("id");
                    VarCharVector name = (VarCharVector) batch.root().getVector("name");
                    BigIntVector amount = (BigIntVector) batch.root().getVector("amount");
                    for (int i = 0; i < batch.rowCount(); i++) {
                        ids.add(id.get(i));
                        assertThat(name.getObject(i).toString()).isEqualTo("name-" + id.get(i));
                        assertThat(amount.get(i)).isEqualTo(id.get(i) * 10L);
                    }
                }
            }
            assertThat(reader.progress().bucketsDone()).isEqualTo(3);
        }
        assertThat(nextOffsetPerBucket).hasSize(3);
        assertThat(ids).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 10_000).boxed().collect(Collectors.toList()));
    }
}
