package dev.riffle.core.read;

/**
 * How far a bounded read has come.
 *
 * @param rows rows returned so far
 * @param bytes Arrow buffer bytes returned so far
 * @param bucketsDone buckets that reached their stop offset
 * @param buckets buckets the read covers
 */
public record ReadProgress(long rows, long bytes, int bucketsDone, int buckets) {}
