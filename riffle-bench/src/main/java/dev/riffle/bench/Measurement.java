package dev.riffle.bench;

/**
 * One timed read.
 *
 * @param checksum a sum over every value read, so two readers can be shown to read the same data
 */
record Measurement(long rows, long nanos, long checksum, long peakHeapBytes) {
    double rowsPerSecond() {
        return rows / (nanos / 1e9);
    }
}
