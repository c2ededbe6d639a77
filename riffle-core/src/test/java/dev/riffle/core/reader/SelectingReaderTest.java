package dev.riffle.core.reader;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.filter.BatchFilter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.junit.jupiter.api.Test;

/** Where a limit that stops inside a batch says the read can resume. */
class SelectingReaderTest {
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.nullable(new ArrowType.Int(32, true)), null)));
    private static final TableBucket BUCKET = new TableBucket(1, 0);

    @Test
    void aLimitInsideABatchOfOneRowPerOffsetResumesAfterTheLastRowExamined() {
        try (BufferAllocator allocator = new RootAllocator()) {
            List<ReadBatch> out = read(allocator, 3,
                    batch(allocator, new LogRange(BUCKET, Optional.empty(), 100, 105), 0, 1, 2, 3, 4));
            assertThat(ids(out)).containsExactly(0, 1, 2);
            assertThat(out.get(0).logRange()).contains(new LogRange(BUCKET, Optional.empty(), 100, 103));
            out.forEach(ReadBatch::close);
        }
    }

    /**
     * A union read's log tail is filtered before the merge and limited after it: its batches have
     * fewer rows than offsets. A limit stopping inside one used to fail the read (the soak found
     * it as 500s on filtered, limited union scans); now the rows come and the batch names no range.
     */
    @Test
    void aLimitInsideAnAlreadyFilteredBatchKeepsTheRowsAndNamesNoRange() {
        try (BufferAllocator allocator = new RootAllocator()) {
            List<ReadBatch> out = read(allocator, 2,
                    batch(allocator, new LogRange(BUCKET, Optional.empty(), 100, 110), 3, 7, 9));
            assertThat(ids(out)).containsExactly(3, 7);
            assertThat(out.get(0).logRange()).isEmpty();
            out.forEach(ReadBatch::close);
        }
    }

    @Test
    void aBatchReadWholeKeepsItsRangeEvenWhenFilteredEarlier() {
        try (BufferAllocator allocator = new RootAllocator()) {
            List<ReadBatch> out = read(allocator, 10,
                    batch(allocator, new LogRange(BUCKET, Optional.empty(), 100, 110), 3, 7, 9));
            assertThat(ids(out)).containsExactly(3, 7, 9);
            assertThat(out.get(0).logRange()).contains(new LogRange(BUCKET, Optional.empty(), 100, 110));
            out.forEach(ReadBatch::close);
        }
    }

    private static List<ReadBatch> read(BufferAllocator allocator, long limit, ReadBatch... batches) {
        List<ReadBatch> out = new ArrayList<>();
        try (SelectingReader reader = new SelectingReader(new ListReader(allocator, batches), BatchFilter.all(), limit,
                new int[] {0})) {
            while (reader.hasNext()) {
                out.add(reader.next());
            }
        }
        return out;
    }

    private static ReadBatch batch(BufferAllocator allocator, LogRange range, int... ids) {
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        IntVector id = (IntVector) root.getVector(0);
        id.allocateNew(ids.length);
        for (int i = 0; i < ids.length; i++) {
            id.set(i, ids[i]);
        }
        root.setRowCount(ids.length);
        return ReadBatch.of(root, range);
    }

    private static List<Integer> ids(List<ReadBatch> batches) {
        List<Integer> ids = new ArrayList<>();
        for (ReadBatch batch : batches) {
            IntVector id = (IntVector) batch.root().getVector(0);
            for (int i = 0; i < batch.rowCount(); i++) {
                ids.add(id.get(i));
            }
        }
        return ids;
    }

    /** Hands out the given batches, then ends; closes what it did not hand out. */
    private static final class ListReader implements TableReader {
        private final BufferAllocator allocator;
        private final Deque<ReadBatch> batches;

        ListReader(BufferAllocator allocator, ReadBatch... batches) {
            this.allocator = allocator;
            this.batches = new ArrayDeque<>(List.of(batches));
        }

        public Schema schema() {
            return SCHEMA;
        }

        public boolean hasNext() {
            return !batches.isEmpty();
        }

        public ReadBatch next() {
            return batches.removeFirst();
        }

        public ReadProgress progress() {
            return new ReadProgress(0, 0, 0, 1);
        }

        public Map<TableBucket, Long> logStopOffsets() {
            return Map.of();
        }

        public BufferAllocator allocator() {
            return allocator;
        }

        public void close() {
            batches.forEach(ReadBatch::close);
            batches.clear();
        }
    }
}
