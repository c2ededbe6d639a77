package dev.riffle.cli.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.cli.CapturedRun;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(LocalClusterExtension.class)
class SqlCommandIT {

    static CapturedRun run(String... args) {
        return CapturedRun.of(args);
    }

    @Test
    void oneShotQueriesPrintTablesCsvJsonOrArrowAndStopAtTheFirstFailure(LocalCluster cluster, Connection fluss,
            TestNames names, @TempDir Path dir) throws Exception {
        TablePath path = names.table("cli");
        try (Admin admin = fluss.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(Schema.newBuilder().column("id", DataTypes.INT())
                    .column("name", DataTypes.STRING()).build()).distributedBy(1).build(), false).get();
        }
        try (Table table = fluss.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < 3; i++) {
                writer.append(GenericRow.of(i, i == 1 ? null : BinaryString.fromString(i == 2 ? "n,2 \"q\"" : "n" + i)));
            }
            writer.flush();
        }
        String t = path.getDatabaseName() + "." + path.getTableName();
        String query = "SELECT id, name FROM " + t + " ORDER BY id";
        // As psql prints it: aligned, a header, NULL empty, the count; no warnings.
        CapturedRun table = run("sql", "--bootstrap-servers", cluster.bootstrapServers(), "-e", query);
        assertThat(table.code()).as(table.err()).isZero();
        assertThat(table.out()).isEqualTo("""
                 id | name
                ----+---------
                 0  | n0
                 1  |\s
                 2  | n,2 "q"
                (3 rows)
                """);
        assertThat(table.err()).isEmpty();

        CapturedRun csv = run("sql", "--bootstrap-servers", cluster.bootstrapServers(), "--format", "csv", "-e", query);
        assertThat(csv.out()).isEqualTo("id,name\r\n0,n0\r\n1,\r\n2,\"n,2 \"\"q\"\"\"\r\n");
        CapturedRun json = run("sql", "--bootstrap-servers", cluster.bootstrapServers(), "--format", "json", "-e", query);
        assertThat(json.out()).isEqualTo("{\"id\":0,\"name\":\"n0\"}\n{\"id\":1,\"name\":null}\n"
                + "{\"id\":2,\"name\":\"n,2 \\\"q\\\"\"}\n");
        CapturedRun arrow = run("sql", "--bootstrap-servers", cluster.bootstrapServers(), "--format", "arrow", "-e", query);
        try (org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator();
                org.apache.arrow.vector.ipc.ArrowStreamReader reader = new org.apache.arrow.vector.ipc.ArrowStreamReader(
                        new java.io.ByteArrayInputStream(arrow.bytes()), allocator)) {
            int rows = 0;
            while (reader.loadNextBatch()) {
                rows += reader.getVectorSchemaRoot().getRowCount();
            }
            assertThat(rows).isEqualTo(3);
            assertThat(reader.getVectorSchemaRoot().getSchema().getFields()).extracting(f -> f.getName())
                    .containsExactly("id", "name");
        }

        Path script = dir.resolve("q.sql");
        Files.writeString(script, "SELECT count(*) AS n FROM " + t + ";\n-- a comment; with a semicolon\n"
                + "SELECT 'a;b' AS s;\n");
        CapturedRun file = run("sql", "--bootstrap-servers", cluster.bootstrapServers(), "-f", script.toString());
        assertThat(file.code()).as(file.err()).isZero();
        assertThat(file.out()).isEqualTo(" n\n---\n 3\n(1 row)\n s\n-----\n a;b\n(1 row)\n");

        // The first failure stops the script: one line with its code on stderr, exit 1, nothing after it runs.
        CapturedRun bad = run("sql", "--bootstrap-servers", cluster.bootstrapServers(), "-e",
                "SELECT 1 AS x; SELECT * FROM " + path.getDatabaseName() + ".nope; SELECT 2 AS y");
        assertThat(bad.code()).isEqualTo(1);
        assertThat(bad.out()).as(bad.err()).isEqualTo(" x\n---\n 1\n(1 row)\n");
        assertThat(bad.err().strip()).startsWith("ERROR: table_not_found: ").contains("nope").doesNotContain("\n");

        CapturedRun unknownFormat = run("sql", "--bootstrap-servers", cluster.bootstrapServers(), "--format", "xml", "-e",
                "SELECT 1");
        assertThat(unknownFormat.code()).isNotZero();
        assertThat(unknownFormat.err()).contains("--format takes table, csv, json or arrow, got 'xml'");
    }
}
