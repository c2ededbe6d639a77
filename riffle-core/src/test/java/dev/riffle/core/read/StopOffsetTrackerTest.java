package dev.riffle.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TableBucket;
import org.junit.jupiter.api.Test;

/** The seed's slicing cases: what a bounded read keeps of each batch, and when a bucket ends. */
class StopOffsetTrackerTest {
    private static final TableBucket B0 = new TableBucket(1L, 0);
    private static final TableBucket B1 = new TableBucket(1L, 1);
    private static final TableBucket UNKNOWN = new TableBucket(1L, 7);

    private static Optional<StopOffsetTracker.Keep> keep(int from, int length) {
        return Optional.of(new StopOffsetTracker.Keep(from, length));
    }

    @Test
    void batchEntirelyBeforeItsStopIsKeptWhole() {
        StopOffsetTracker tracker = new StopOffsetTracker(Map.of(B0, 100L));
        assertThat(tracker.accept(B0, 0, 10)).isEqualTo(keep(0, 10));
        assertThat(tracker.isFinished(B0)).isFalse();
    }

    @Test
    void batchCrossingTheStopIsSlicedAndEndsTheBucket() {
        StopOffsetTracker tracker = new StopOffsetTracker(Map.of(B0, 15L));
        assertThat(tracker.accept(B0, 10, 10)).isEqualTo(keep(0, 5));
        assertThat(tracker.isFinished(B0)).isTrue();
        assertThat(tracker.allFinished()).isTrue();
    }

    @Test
    void batchAtOrAfterTheStopIsSkippedAndEndsTheBucket() {
        StopOffsetTracker atStop = new StopOffsetTracker(Map.of(B0, 10L));
        assertThat(atStop.accept(B0, 10, 5)).isEmpty();
        assertThat(atStop.isFinished(B0)).isTrue();

        StopOffsetTracker pastStop = new StopOffsetTracker(Map.of(B0, 10L));
        assertThat(pastStop.accept(B0, 12, 5)).isEmpty();
        assertThat(pastStop.isFinished(B0)).isTrue();
    }

    @Test
    void batchEndingExactlyAtStopMinusOneEndsTheBucket() {
        StopOffsetTracker tracker = new StopOffsetTracker(Map.of(B0, 10L));
        assertThat(tracker.accept(B0, 5, 5)).isEqualTo(keep(0, 5)); // offsets 5..9
        assertThat(tracker.isFinished(B0)).isTrue();
    }

    @Test
    void batchFromAnUnknownBucketIsIgnored() {
        StopOffsetTracker tracker = new StopOffsetTracker(Map.of(B0, 10L));
        assertThat(tracker.accept(UNKNOWN, 0, 5)).isEmpty();
        assertThat(tracker.isFinished(B0)).isFalse();
        assertThat(tracker.unfinished()).containsOnlyKeys(B0);
    }

    @Test
    void bucketsAreTrackedIndependently() {
        StopOffsetTracker tracker = new StopOffsetTracker(Map.of(B0, 10L, B1, 3L));
        assertThat(tracker.accept(B1, 0, 5)).isEqualTo(keep(0, 3));
        assertThat(tracker.isFinished(B1)).isTrue();
        assertThat(tracker.isFinished(B0)).isFalse();
        assertThat(tracker.accept(B0, 0, 5)).isEqualTo(keep(0, 5));
        assertThat(tracker.accept(B1, 3, 5)).as("finished bucket").isEmpty();
        assertThat(tracker.accept(B0, 5, 10)).isEqualTo(keep(0, 5));
        assertThat(tracker.allFinished()).isTrue();
    }

    @Test
    void emptyBatchAtTheStopEndsTheBucket() {
        StopOffsetTracker tracker = new StopOffsetTracker(Map.of(B0, 10L));
        assertThat(tracker.accept(B0, 10, 0)).isEmpty();
        assertThat(tracker.isFinished(B0)).isTrue();
    }

    @Test
    void emptyBatchBeforeTheStopIsDropped() {
        StopOffsetTracker tracker = new StopOffsetTracker(Map.of(B0, 10L));
        assertThat(tracker.accept(B0, 4, 0)).isEmpty();
        assertThat(tracker.isFinished(B0)).isFalse();
    }

    @Test
    void singleRowBatchesBeforeAndAtTheBoundary() {
        StopOffsetTracker tracker = new StopOffsetTracker(Map.of(B0, 2L));
        assertThat(tracker.accept(B0, 0, 1)).isEqualTo(keep(0, 1));
        assertThat(tracker.isFinished(B0)).isFalse();
        assertThat(tracker.accept(B0, 1, 1)).isEqualTo(keep(0, 1)); // offset 1 = stop - 1
        assertThat(tracker.isFinished(B0)).isTrue();
        assertThat(tracker.accept(B0, 2, 1)).isEmpty();
    }

    @Test
    void positionReachingTheStopEndsTheBucketWithoutAnyBatch() {
        // Offsets can be used by batches without rows (a primary-key write that changed nothing).
        StopOffsetTracker tracker = new StopOffsetTracker(Map.of(B0, 10L, B1, 0L));
        tracker.advance(B1, 0); // start at or past the stop: nothing to read
        assertThat(tracker.isFinished(B1)).isTrue();
        tracker.advance(B0, 9);
        assertThat(tracker.isFinished(B0)).isFalse();
        tracker.advance(B0, 10);
        assertThat(tracker.isFinished(B0)).isTrue();
    }
}
