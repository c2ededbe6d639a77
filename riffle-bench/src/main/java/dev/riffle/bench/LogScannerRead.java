package dev.riffle.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.Scan;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.InternalRow;

/**
 * The baseline: the official client's {@code LogScanner.poll} loop, subscribed from the beginning
 * of every bucket until the offsets that were latest when it started, reading every field of every
 * row, the way an application without Riffle reads a table to its end.
 */
final class LogScannerRead {
    private LogScannerRead() {}

    /** Times everything from opening the table to the last row; the connection is set up before. */
    static Measurement read(Connection connection, String table, Optional<List<String>> columns) throws Exception {
        TablePath path = TablePath.of(table.substring(0, table.indexOf('.')), table.substring(table.indexOf('.') + 1));
        HeapPeak.reset();
        long started = System.nanoTime();
        long rows = 0;
        long checksum = 0;
        try (Table t = connection.getTable(path)) {
            int buckets = t.getTableInfo().getNumBuckets();
            Map<Integer, Long> remaining = new HashMap<>();
            try (Admin admin = connection.getAdmin()) {
                remaining.putAll(admin.listOffsets(path, java.util.stream.IntStream.range(0, buckets).boxed().toList(),
                        new OffsetSpec.LatestSpec()).all().get());
            }
            remaining.values().removeIf(offset -> offset == 0);
            Scan scan = t.newScan();
            if (columns.isPresent()) {
                scan = scan.project(columns.get());
            }
            try (LogScanner scanner = scan.createLogScanner()) {
                remaining.keySet().forEach(scanner::subscribeFromBeginning);
                while (!remaining.isEmpty()) {
                    ScanRecords records = scanner.poll(Duration.ofMillis(500));
                    for (TableBucket bucket : records.buckets()) {
                        Long stop = remaining.get(bucket.getBucket());
                        for (ScanRecord record : records.records(bucket)) {
                            if (stop == null || record.logOffset() >= stop) {
                                continue;
                            }
                            checksum += columns.isPresent() ? twoFields(record.getRow()) : everyField(record.getRow());
                            rows++;
                            if (record.logOffset() == stop - 1) {
                                remaining.remove(bucket.getBucket());
                                scanner.unsubscribe(bucket.getBucket());
                                stop = null;
                            }
                        }
                    }
                }
            }
        }
        return new Measurement(rows, System.nanoTime() - started, checksum, HeapPeak.peakBytes());
    }

    private static long everyField(InternalRow row) {
        return row.getInt(0) + row.getString(1).getSizeInBytes() + row.getLong(2) + (long) row.getDouble(3)
                + row.getTimestampNtz(4, 3).getMillisecond();
    }

    private static long twoFields(InternalRow row) {
        return row.getInt(0) + (long) row.getDouble(1);
    }
}
