package dev.riffle.core;

import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;

/** Tables the read tests share: (id INT, name STRING, amount BIGINT) with N buckets. */
public final class TestTables {
    public static final Schema EVENTS = Schema.newBuilder()
            .column("id", DataTypes.INT())
            .column("name", DataTypes.STRING())
            .column("amount", DataTypes.BIGINT())
            .build();

    private TestTables() {}

    public static void create(Connection connection, TablePath path, Schema schema, int buckets, String... keys)
            throws Exception {
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(buckets, keys).build(), false)
                    .get(60, TimeUnit.SECONDS);
            // Fluss 0.9.1 can cache "no leader" for a table asked about before its leaders exist.
            dev.riffle.core.rpc.TableReadiness.await((org.apache.fluss.client.FlussConnection) connection, path, java.time.Duration.ofSeconds(30), java.util.concurrent.ForkJoinPool.commonPool()).get();
        }
    }

    public static GenericRow event(int id) {
        return GenericRow.of(id, BinaryString.fromString("name-" + id), (long) id * 10);
    }

    /** Appends ids [from, to), flushing every {@code flushEvery} rows (so many small batches). */
    public static void appendEvents(Connection connection, TablePath path, int from, int to, int flushEvery)
            throws Exception {
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = from; i < to; i++) {
                writer.append(event(i));
                if ((i - from + 1) % flushEvery == 0) {
                    writer.flush();
                }
            }
            writer.flush();
        }
    }
}
