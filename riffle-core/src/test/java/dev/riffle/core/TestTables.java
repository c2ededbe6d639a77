package dev.riffle.core;

import org.apache.fluss.client.FlussConnection;
import dev.riffle.core.rpc.RetryingAdmin;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
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
        // Through RetryingAdmin: its createTable returns once the buckets have leaders (TableReadiness).
        RetryingAdmin.of((FlussConnection) connection)
                .createTable(path, TableDescriptor.builder().schema(schema).distributedBy(buckets, keys).build(), false)
                .get(60, TimeUnit.SECONDS);
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
