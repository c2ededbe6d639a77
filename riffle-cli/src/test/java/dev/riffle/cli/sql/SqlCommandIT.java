package dev.riffle.cli.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.cli.RiffleCli;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
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

    record Run(int code, String out, String err) {}

    static Run run(String... args) {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            StringWriter picocli = new StringWriter();
            code = RiffleCli.run(args, new PrintWriter(picocli, true), new PrintWriter(picocli, true));
            System.err.print(picocli);
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void oneShotQueriesPrintCsvAndFailuresExitNonZero(LocalCluster cluster, Connection fluss, TestNames names,
            @TempDir Path dir) throws Exception {
        TablePath path = names.table("cli");
        try (Admin admin = fluss.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(Schema.newBuilder().column("id", DataTypes.INT())
                    .column("name", DataTypes.STRING()).build()).distributedBy(1).build(), false).get();
        }
        try (Table table = fluss.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < 3; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("n" + i)));
            }
            writer.flush();
        }
        String t = path.getDatabaseName() + "." + path.getTableName();
        Run ok = run("sql", "--bootstrap-servers", cluster.bootstrapServers(), "-e",
                "SELECT id, name FROM " + t + " ORDER BY id");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("'id','name'").contains("'0','n0'").contains("'2','n2'");

        Path script = dir.resolve("q.sql");
        Files.writeString(script, "SELECT count(*) AS n FROM " + t + ";\n");
        Run file = run("sql", "--bootstrap-servers", cluster.bootstrapServers(), "-f", script.toString());
        assertThat(file.code()).as(file.err()).isZero();
        assertThat(file.out()).contains("'3'");

        Run bad = run("sql", "--bootstrap-servers", cluster.bootstrapServers(), "-e",
                "SELECT * FROM " + path.getDatabaseName() + ".nope");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.out() + bad.err()).contains("nope");
    }
}
