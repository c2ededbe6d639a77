package dev.riffle.cli.read;

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

/** Tables for the read command's tests, made and filled with the official Fluss client. */
final class ReadTables {
    /** A log table: (id INT, name STRING, amount BIGINT). */
    static final Schema EVENTS = Schema.newBuilder()
            .column("id", DataTypes.INT())
            .column("name", DataTypes.STRING())
            .column("amount", DataTypes.BIGINT())
            .build();

    /** The same columns with {@code id} as primary key. */
    static final Schema KEYED_EVENTS = Schema.newBuilder()
            .column("id", DataTypes.INT())
            .column("name", DataTypes.STRING())
            .column("amount", DataTypes.BIGINT())
            .primaryKey("id")
            .build();

    private ReadTables() {}

    static void create(Connection connection, TablePath path, Schema schema, int buckets) throws Exception {
        // Through RetryingAdmin: its createTable returns once the buckets have leaders (TableReadiness).
        RetryingAdmin.of((FlussConnection) connection)
                .createTable(path, TableDescriptor.builder().schema(schema).distributedBy(buckets).build(), false)
                .get(60, TimeUnit.SECONDS);
    }

    /** Id {@code i} has name {@code name-i} and amount {@code 10 * i}. */
    static GenericRow event(int id) {
        return row(id, "name-" + id, id * 10L);
    }

    static GenericRow row(int id, String name, long amount) {
        return GenericRow.of(id, BinaryString.fromString(name), amount);
    }

    /** Appends ids [from, to) in one flush. */
    static void append(Connection connection, TablePath path, int from, int to) throws Exception {
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = from; i < to; i++) {
                writer.append(event(i));
            }
            writer.flush();
        }
    }
}
