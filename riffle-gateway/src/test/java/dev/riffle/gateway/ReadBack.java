package dev.riffle.gateway;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.core.Riffle;
import dev.riffle.core.read.LogBatches;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.JsonValueSink;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;

/** Reads a table back through riffle-core's bounded reader (not through the gateway). */
final class ReadBack {
    private ReadBack() {}

    /** Every row of a log table (or, with changelog, of a changelog) as JSON objects, sorted by bucket then offset. */
    static List<JsonNode> rows(Connection connection, TablePath path, boolean changelog) {
        try (BufferAllocator allocator = new RootAllocator();
                Riffle riffle = Riffle.using(connection, allocator)) {
            var read = changelog ? riffle.table(path).read().changelog() : riffle.table(path).read().log();
            try (var reader = read.createLogReader(); LogBatches batches = reader.collectAll()) {
                List<JsonNode> rows = new ArrayList<>();
                for (LogBatch batch : batches) {
                    rows.addAll(json(batch.root()));
                }
                return rows;
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The rows of a batch as JSON objects, rendered the way the gateway renders them. */
    static List<JsonNode> json(VectorSchemaRoot root) {
        List<JsonNode> rows = new ArrayList<>();
        try {
            for (int row = 0; row < root.getRowCount(); row++) {
                StringWriter text = new StringWriter();
                try (JsonGenerator json = Api.JSON.createGenerator(text)) {
                    JsonValueSink.writeRow(json, ArrowValueReader.ofColumns(root.getFieldVectors()), row,
                            new JsonValueSink(json));
                }
                rows.add(Api.JSON.readTree(text.toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }
}
