package dev.riffle.bench;

import java.util.Locale;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;

/**
 * The two tables the wire-protocol benchmarks read, written with the Fluss client before any clock
 * starts: {@code bench.events}, a log table {@code (id BIGINT, kind STRING, amount DOUBLE)} to scan,
 * and {@code bench.accounts}, a primary-key table {@code (id BIGINT PRIMARY KEY, owner STRING)} to
 * look keys up in, both in {@link #BUCKETS} buckets.
 *
 * <pre>{@code
 * BenchTables.create(connection, 5_000_000, 100_000);
 * }</pre>
 */
final class BenchTables {
    static final int BUCKETS = 4;
    static final TablePath EVENTS = TablePath.of("bench", "events");
    static final TablePath ACCOUNTS = TablePath.of("bench", "accounts");

    private BenchTables() {}

    static void create(Connection connection, int rows, int keys) throws Exception {
        try (Admin admin = connection.getAdmin()) {
            admin.createDatabase("bench", DatabaseDescriptor.EMPTY, true).get();
            TableDescriptor.Builder events = TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("id", DataTypes.BIGINT()).column("kind", DataTypes.STRING()).column("amount", DataTypes.DOUBLE())
                    .build()).distributedBy(BUCKETS);
            // -Dbench.eventsCompression=NONE (or LZ4_FRAME): the log's Arrow compression, to tell its share of a read.
            String compression = System.getProperty("bench.eventsCompression", "");
            if (!compression.isBlank()) {
                events.property("table.log.arrow.compression.type", compression);
            }
            admin.createTable(EVENTS, events.build(), false).get();
            admin.createTable(ACCOUNTS, TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("id", DataTypes.BIGINT()).column("owner", DataTypes.STRING()).primaryKey("id").build())
                    .distributedBy(BUCKETS).build(), false).get();
        }
        long started = System.nanoTime();
        try (Table table = connection.getTable(EVENTS)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int id = 0; id < rows; id++) {
                writer.append(GenericRow.of((long) id, BinaryString.fromString("kind-" + (id % 10)), id * 0.5));
            }
            writer.flush();
        }
        try (Table table = connection.getTable(ACCOUNTS)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int id = 0; id < keys; id++) {
                writer.upsert(GenericRow.of((long) id, BinaryString.fromString("owner-" + id)));
            }
            writer.flush();
        }
        System.out.printf(Locale.ROOT, "  wrote %,d rows and %,d keys in %.0f s%n", rows, keys,
                (System.nanoTime() - started) / 1e9);
    }
}
