package dev.riffle.local;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;

/** Test-side reads and writes of (INT id, STRING name) tables through the official client. */
final class FlussRows {
    private FlussRows() {}

    static GenericRow row(int id, String name) {
        return GenericRow.of(id, BinaryString.fromString(name));
    }

    static void append(Connection connection, TablePath path, int from, int to) throws Exception {
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = from; i < to; i++) {
                writer.append(row(i, "name-" + i));
            }
            writer.flush();
        }
    }

    static void upsert(Connection connection, TablePath path, int from, int to, String prefix) throws Exception {
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = from; i < to; i++) {
                writer.upsert(row(i, prefix + i));
            }
            writer.flush();
        }
    }

    /** Every row of a log table, read from the beginning of each bucket until {@code expected} rows. */
    static List<String> readLog(Connection connection, TablePath path, int buckets, int expected) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Table table = connection.getTable(path); LogScanner scanner = table.newScan().createLogScanner()) {
            for (int b = 0; b < buckets; b++) {
                scanner.subscribeFromBeginning(b);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (rows.size() < expected && System.nanoTime() < deadline) {
                for (ScanRecord record : scanner.poll(Duration.ofMillis(500))) {
                    rows.add(format(record.getRow()));
                }
            }
        }
        return rows;
    }

    static String lookup(Connection connection, TablePath path, int id) throws Exception {
        try (Table table = connection.getTable(path)) {
            InternalRow found = table.newLookup().createLookuper().lookup(GenericRow.of(id))
                    .get(30, TimeUnit.SECONDS).getSingletonRow();
            return found == null ? null : format(found);
        }
    }

    static String format(InternalRow row) {
        return row.getInt(0) + ":" + row.getString(1);
    }
}
