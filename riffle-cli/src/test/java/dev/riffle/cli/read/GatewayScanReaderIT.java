package dev.riffle.cli.read;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.cli.running.GatewayClient;
import dev.riffle.cli.running.RunningGateway;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.gateway.Gateway;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A log range read through a gateway in small pages: every row once, up to the stop the first page fixed. */
@ExtendWith(LocalClusterExtension.class)
class GatewayScanReaderIT {

    @Test
    void pagesOfALogRangeGiveEveryRowOnceAndStopWhereTheFirstPageSaid(Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("paged");
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(Schema.newBuilder().column("id", DataTypes.INT())
                    .build()).distributedBy(2).build(), false).get();
        }
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < 25; i++) {
                writer.append(GenericRow.of(i));
            }
            writer.flush();
        }
        try (Gateway gateway = Gateway.start(connection, 0); BufferAllocator allocator = new RootAllocator()) {
            GatewayClient client = new GatewayClient(new RunningGateway(ProcessHandle.current().pid(), "unused:1",
                    URI.create(gateway.url())));
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            body.put("source", "log");
            List<Integer> ids = new ArrayList<>();
            try (GatewayScanReader reader = GatewayScanReader.open(client, path.getDatabaseName(), path.getTableName(),
                    body, true, 4, allocator)) {
                // Rows written after the read began are not part of it: the first page fixed where it stops.
                try (Table table = connection.getTable(path)) {
                    AppendWriter writer = table.newAppend().createWriter();
                    writer.append(GenericRow.of(1000));
                    writer.flush();
                }
                while (reader.hasNext()) {
                    try (ReadBatch batch = reader.next()) {
                        assertThat(batch.rowCount()).isLessThanOrEqualTo(4);
                        IntVector id = (IntVector) batch.root().getVector(0);
                        for (int i = 0; i < batch.rowCount(); i++) {
                            ids.add(id.get(i));
                        }
                    }
                }
                assertThat(reader.progress().rows()).isEqualTo(25);
            }
            assertThat(ids).hasSize(25).doesNotHaveDuplicates().allMatch(id -> id < 25);
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }
}
