package dev.riffle.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.exception.LogExpiredException;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.rpc.FetchException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.exception.LogOffsetOutOfRangeException;
import org.apache.fluss.metadata.TableBucket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When a current-rows read is opened again (the log past its snapshot expired as it started), and when not. */
class CurrentRowsReaderTest {
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.nullable(new ArrowType.Int(32, true)), null)));
    private static final Duration NO_PAUSE = Duration.ZERO;

    private final BufferAllocator allocator = new RootAllocator();
    private final List<Scripted> opened = new ArrayList<>();

    @AfterEach
    void noLeaks() {
        assertThat(opened).allSatisfy(reader -> assertThat(reader.closed).as("every opened reader closed").isTrue());
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void aTailFetchThatFindsTheLogExpiredReadsAgainFromTheLatestSnapshots() {
        Supplier<TableReader> open = script(new Scripted(expiredFetch(), 0), new Scripted(null, 7));
        try (TableReader reader = CurrentRowsReader.open(open, 4, NO_PAUSE)) {
            assertThat(ids(reader)).containsExactly(7);
        }
        assertThat(opened).hasSize(2);
        assertThat(opened.get(0).closed).as("the failed read closed before the next opens").isTrue();
    }

    @Test
    void anOpenThatFindsTheLogExpiredIsTriedAgainToo() {
        AtomicInteger tries = new AtomicInteger();
        Supplier<TableReader> open = () -> {
            if (tries.incrementAndGet() < 3) {
                throw new LogExpiredException("bucket 0 starts at 90, its snapshot at 40", null);
            }
            Scripted reader = new Scripted(null, 5);
            opened.add(reader);
            return reader;
        };
        try (TableReader reader = CurrentRowsReader.open(open, 4, NO_PAUSE)) {
            assertThat(ids(reader)).containsExactly(5);
        }
        assertThat(tries).hasValue(3);
    }

    @Test
    void afterTheFirstBatchAFailureIsTheReadersNotAReason() {
        Scripted first = new Scripted(null, 1);
        first.failAfterFirst = expiredFetch();
        Supplier<TableReader> open = script(first, new Scripted(null, 2));
        try (TableReader reader = CurrentRowsReader.open(open, 4, NO_PAUSE)) {
            assertThat(reader.hasNext()).isTrue();
            reader.next().close();
            assertThatThrownBy(reader::hasNext).isSameAs(first.failAfterFirst);
        }
        assertThat(opened).hasSize(1);
    }

    @Test
    void otherFailuresAreNotRetried() {
        FetchException denied = new FetchException("Bucket 0 cannot be read: not authorized");
        Supplier<TableReader> open = script(new Scripted(denied, 0), new Scripted(null, 3));
        try (TableReader reader = CurrentRowsReader.open(open, 4, NO_PAUSE)) {
            assertThatThrownBy(reader::hasNext).isSameAs(denied);
        }
        assertThat(opened).hasSize(1);
    }

    @Test
    void whenEveryTryFindsTheLogExpiredTheReadFailsSayingWhatWouldHelp() {
        Supplier<TableReader> open = script(new Scripted(expiredFetch(), 0), new Scripted(expiredFetch(), 0),
                new Scripted(expiredFetch(), 0));
        try (TableReader reader = CurrentRowsReader.open(open, 3, NO_PAUSE)) {
            assertThatThrownBy(reader::hasNext).isInstanceOf(LogExpiredException.class)
                    .hasMessageContaining("3 times").hasMessageContaining("offset 40")
                    .hasMessageContaining("kv.snapshot.interval");
        }
        assertThat(opened).hasSize(3);
    }

    private static FetchException expiredFetch() {
        return new FetchException("Bucket 0 of t cannot be read at offset 40: only 90 to 120 (LOG_OFFSET_OUT_OF_RANGE)",
                new LogOffsetOutOfRangeException("only 90 to 120"));
    }

    private Supplier<TableReader> script(Scripted... readers) {
        AtomicInteger next = new AtomicInteger();
        return () -> {
            Scripted reader = readers[next.getAndIncrement()];
            opened.add(reader);
            return reader;
        };
    }

    private static List<Integer> ids(TableReader reader) {
        List<Integer> ids = new ArrayList<>();
        while (reader.hasNext()) {
            try (ReadBatch batch = reader.next()) {
                ids.add(((IntVector) batch.root().getVector(0)).get(0));
            }
        }
        return ids;
    }

    /** Fails its first hasNext with {@code failure}, or hands out one batch of one row ({@code id}). */
    private final class Scripted implements TableReader {
        private final RuntimeException failure;
        private final int id;
        private RuntimeException failAfterFirst;
        private boolean handedOut;
        private boolean closed;

        Scripted(RuntimeException failure, int id) {
            this.failure = failure;
            this.id = id;
        }

        @Override
        public Schema schema() {
            return SCHEMA;
        }

        @Override
        public boolean hasNext() {
            if (failure != null) {
                throw failure;
            }
            if (handedOut && failAfterFirst != null) {
                throw failAfterFirst;
            }
            return !handedOut;
        }

        @Override
        public ReadBatch next() {
            handedOut = true;
            VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
            IntVector vector = (IntVector) root.getVector(0);
            vector.allocateNew(1);
            vector.set(0, id);
            root.setRowCount(1);
            return ReadBatch.of(root);
        }

        @Override
        public ReadProgress progress() {
            return new ReadProgress(0, 0, 0, 1);
        }

        @Override
        public Map<TableBucket, Long> logStopOffsets() {
            return Map.of();
        }

        @Override
        public BufferAllocator allocator() {
            return allocator;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
