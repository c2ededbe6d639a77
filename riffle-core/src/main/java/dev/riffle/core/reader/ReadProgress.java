package dev.riffle.core.reader;

/**
 * How far a read has come.
 *
 * @param rows rows returned so far
 * @param bytes Arrow buffer bytes returned so far
 * @param bucketsDone buckets whose log part reached its stop offset
 * @param buckets buckets the log part covers
 * @param lakeFiles lake data files the read covers, known from its plan once the lake's files
 *     are pruned by partition and by the pushed filter (0 when the read has no lake part)
 */
public record ReadProgress(long rows, long bytes, int bucketsDone, int buckets, long lakeFiles) {

    /** Progress of a read without a lake part. */
    public ReadProgress(long rows, long bytes, int bucketsDone, int buckets) {
        this(rows, bytes, bucketsDone, buckets, 0);
    }
}
