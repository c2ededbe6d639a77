package dev.riffle.cli.read;

import static dev.riffle.cli.read.ReadTables.EVENTS;
import static dev.riffle.cli.read.ReadTables.KEYED_EVENTS;
import static dev.riffle.cli.read.ReadTables.append;
import static dev.riffle.cli.read.ReadTables.create;
import static dev.riffle.cli.read.ReadTables.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.cli.RiffleCli;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code riffle read} against the embedded cluster, run in-process. */
@ExtendWith(LocalClusterExtension.class)
class ReadCommandIT {

    @Test
    void csvOfALogTable(LocalCluster cluster, Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("events");
        create(connection, path, EVENTS, 3);
        append(connection, path, 0, 20);

        CliRun run = read(cluster, path);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("id,name,amount\r\n");
        // Buckets come back in no fixed order: compare in id order.
        assertThat(byFirstNumber(run.outLinesAfterHeader()))
                .containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> i + ",name-" + i + "," + i * 10).toList());
        assertThat(run.err()).matches("Read 20 rows \\(\\d+\\.\\d MB\\) from 3 buckets in \\d+\\.\\d s\\R");
    }

    @Test
    void jsonOfALogTable(LocalCluster cluster, Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("events");
        create(connection, path, EVENTS, 2);
        append(connection, path, 0, 5);

        CliRun run = read(cluster, path, "--format", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> lines = run.out().lines().sorted(Comparator.comparingInt(ReadCommandIT::jsonId)).toList();
        assertThat(lines).containsExactlyElementsOf(IntStream.range(0, 5)
                .mapToObj(i -> "{\"id\":" + i + ",\"name\":\"name-" + i + "\",\"amount\":" + i * 10 + "}").toList());
        assertThat(run.out()).endsWith("}\n");
    }

    @Test
    void columnsComeInTheOrderGiven(LocalCluster cluster, Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("events");
        create(connection, path, EVENTS, 1);
        append(connection, path, 0, 3);

        CliRun run = read(cluster, path, "--columns", "amount, id");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("amount,id\r\n0,0\r\n10,1\r\n20,2\r\n");
    }

    @Test
    void changelogOfAPrimaryKeyTable(LocalCluster cluster, Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("accounts");
        create(connection, path, KEYED_EVENTS, 1);
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            writer.upsert(row(1, "a", 10)).get(60, TimeUnit.SECONDS);
            writer.upsert(row(1, "b", 20)).get(60, TimeUnit.SECONDS);
            writer.upsert(row(2, "c", 30)).get(60, TimeUnit.SECONDS);
            writer.delete(row(1, "b", 20)).get(60, TimeUnit.SECONDS);
        }

        CliRun run = read(cluster, path, "--changelog");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo("id,name,amount,_change_type,_log_offset,_commit_timestamp");
        List<String> changes = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",");
            assertThat(Instant.parse(fields[5])).isBefore(Instant.now().plusSeconds(60));
            changes.add(String.join(",", Arrays.asList(fields).subList(0, 5)));
        }
        // One bucket: the log order is the order of the writes.
        assertThat(changes).containsExactly(
                "1,a,10,+I,0",
                "1,a,10,-U,1",
                "1,b,20,+U,2",
                "2,c,30,+I,3",
                "1,b,20,-D,4");
    }

    @Test
    void bucketOffsetsStartAndStopExactlyThere(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("events");
        create(connection, path, EVENTS, 1);
        append(connection, path, 0, 10);

        CliRun run = read(cluster, path, "--columns", "id", "--from", "0:2", "--until", "0:5");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("id\r\n2\r\n3\r\n4\r\n");
        assertThat(run.err()).startsWith("Read 3 rows (");
    }

    @Test
    void timestampsStartAndStopAtCommitTimes(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("events");
        create(connection, path, EVENTS, 1);
        append(connection, path, 0, 5);
        Thread.sleep(20); // commit times have millisecond resolution: keep the two appends apart
        Instant between = Instant.now();
        Thread.sleep(20);
        append(connection, path, 5, 10);

        CliRun after = read(cluster, path, "--columns", "id", "--from", between.toString());
        CliRun before = read(cluster, path, "--columns", "id", "--until", Long.toString(between.toEpochMilli()));

        assertThat(after.exitCode()).as(after.err()).isZero();
        assertThat(after.outLinesAfterHeader()).containsExactly("5", "6", "7", "8", "9");
        assertThat(before.exitCode()).as(before.err()).isZero();
        assertThat(before.outLinesAfterHeader()).containsExactly("0", "1", "2", "3", "4");
    }

    @Test
    void arrowOutputIsAReadableStream(LocalCluster cluster, Connection connection, TestNames names, @TempDir Path dir)
            throws Exception {
        TablePath path = names.table("events");
        create(connection, path, EVENTS, 3);
        append(connection, path, 0, 100);
        Path file = dir.resolve("events.arrows");

        CliRun run = read(cluster, path, "--format", "arrow", "--out", file.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEmpty();
        List<Integer> ids = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                InputStream in = Files.newInputStream(file);
                ArrowStreamReader reader = new ArrowStreamReader(in, allocator)) {
            assertThat(reader.getVectorSchemaRoot().getSchema().getFields()).extracting(Field::getName)
                    .containsExactly("id", "name", "amount");
            while (reader.loadNextBatch()) {
                IntVector id = (IntVector) reader.getVectorSchemaRoot().getVector("id");
                VarCharVector name = (VarCharVector) reader.getVectorSchemaRoot().getVector("name");
                BigIntVector amount = (BigIntVector) reader.getVectorSchemaRoot().getVector("amount");
                for (int i = 0; i < reader.getVectorSchemaRoot().getRowCount(); i++) {
                    ids.add(id.get(i));
                    assertThat(name.getObject(i)).hasToString("name-" + id.get(i));
                    assertThat(amount.get(i)).isEqualTo(id.get(i) * 10L);
                }
            }
        }
        assertThat(ids).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 100).boxed().toList());
    }

    @Test
    void aClosedStdoutEndsTheReadQuietly(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("events");
        create(connection, path, EVENTS, 1);
        append(connection, path, 0, 10);
        // Like `riffle read ... | head`: the reader of stdout is gone, writes fail.
        PrintWriter closedPipe = new PrintWriter(new Writer() {
            @Override
            public void write(char[] buffer, int offset, int length) throws IOException {
                throw new IOException("Broken pipe");
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        });
        StringWriter err = new StringWriter();

        int exitCode = RiffleCli.run(new String[] {"read", path.toString(), "--bootstrap-servers",
                cluster.bootstrapServers()}, closedPipe, new PrintWriter(err, true));

        assertThat(exitCode).isZero();
        assertThat(err.toString()).endsWith("; stopped early: the output was closed" + System.lineSeparator());
    }

    @Test
    void unknownTableIsNamed(LocalCluster cluster, TestNames names) {
        TablePath path = names.table("missing");

        CliRun run = read(cluster, path);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err().lines()).singleElement().asString()
                .startsWith("riffle: Table " + path + " does not exist");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void unknownColumnIsNamed(LocalCluster cluster, Connection connection, TestNames names, @TempDir Path dir)
            throws Exception {
        TablePath path = names.table("events");
        create(connection, path, EVENTS, 1);
        Path file = Files.writeString(dir.resolve("keep.csv"), "old content");

        CliRun run = read(cluster, path, "--columns", "id,colour", "--out", file.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err().lines()).singleElement().asString().startsWith("riffle: ").contains("colour");
        // The output is opened only once the read is possible.
        assertThat(file).hasContent("old content");
    }

    @Test
    void primaryKeyTableReadsItsCurrentRowsOrItsChangelog(LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        TablePath path = names.table("accounts");
        create(connection, path, KEYED_EVENTS, 2);
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            writer.upsert(row(1, "a", 10));
            writer.upsert(row(2, "b", 20));
            writer.upsert(row(3, "c", 30));
            writer.upsert(row(1, "a2", 11));
            writer.delete(row(3, "c", 30));
            writer.flush();
        }

        CliRun current = read(cluster, path);
        assertThat(current.exitCode()).as(current.err()).isZero();
        assertThat(current.out().lines().toList().get(0)).isEqualTo("id,name,amount");
        assertThat(current.outLinesAfterHeader()).containsExactlyInAnyOrder("1,a2,11", "2,b,20");

        CliRun explicit = read(cluster, path, "--source", "current", "--columns", "name");
        assertThat(explicit.exitCode()).as(explicit.err()).isZero();
        assertThat(explicit.outLinesAfterHeader()).containsExactlyInAnyOrder("a2", "b");

        CliRun range = read(cluster, path, "--until", "0:1");
        assertThat(range.exitCode()).isEqualTo(1);
        assertThat(range.err().lines()).singleElement().asString()
                .startsWith("riffle: Table " + path + " has a primary key").contains("--changelog");
    }

    @Test
    void rowsWrittenBeforeAColumnWasAddedReadItAsEmpty(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("growing");
        create(connection, path, EVENTS, 2);
        append(connection, path, 0, 3);
        try (org.apache.fluss.client.admin.Admin admin = connection.getAdmin()) {
            dev.riffle.core.schema.TableAlteration.of(path, List.of(org.apache.fluss.metadata.TableChange.addColumn(
                    "region", org.apache.fluss.types.DataTypes.STRING(), null,
                    org.apache.fluss.metadata.TableChange.ColumnPosition.last()))).apply(admin, false)
                    .get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
        try (Table table = connection.getTable(path)) {
            var writer = table.newAppend().createWriter();
            writer.append(org.apache.fluss.row.GenericRow.of(3, org.apache.fluss.row.BinaryString.fromString("name-3"),
                    30L, org.apache.fluss.row.BinaryString.fromString("eu")));
            writer.flush();
        }

        CliRun csv = read(cluster, path);
        assertThat(csv.exitCode()).as(csv.err()).isZero();
        assertThat(csv.out().lines().toList().get(0)).isEqualTo("id,name,amount,region");
        assertThat(byFirstNumber(csv.outLinesAfterHeader()))
                .containsExactly("0,name-0,0,", "1,name-1,10,", "2,name-2,20,", "3,name-3,30,eu");

        CliRun json = read(cluster, path, "--format", "json", "--columns", "id,region");
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.out().lines().sorted(Comparator.comparingInt(ReadCommandIT::jsonId)).toList()).containsExactly(
                "{\"id\":0,\"region\":null}", "{\"id\":1,\"region\":null}", "{\"id\":2,\"region\":null}",
                "{\"id\":3,\"region\":\"eu\"}");
    }

    @Test
    void offsetOfABucketThatDoesNotExist(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("events");
        create(connection, path, EVENTS, 2);

        CliRun run = read(cluster, path, "--until", "5:10");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("riffle: A stop offset names bucket 5, but table " + path + " has buckets 0..1"
                + System.lineSeparator());
    }

    @Test
    void partitionOffsetsOnATableWithoutPartitions(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("events");
        create(connection, path, EVENTS, 1);

        CliRun run = read(cluster, path, "--from", "2024-06-01/0:5");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err().lines()).singleElement().asString()
                .isEqualTo("riffle: A start offset names partition '2024-06-01', but table " + path
                        + " is not partitioned; name buckets alone");
    }

    private static CliRun read(LocalCluster cluster, TablePath path, String... options) {
        List<String> args = new ArrayList<>(List.of("read", path.toString(), "--bootstrap-servers", cluster.bootstrapServers()));
        args.addAll(List.of(options));
        return CliRun.of(args.toArray(String[]::new));
    }

    private static List<String> byFirstNumber(List<String> lines) {
        return lines.stream().sorted(Comparator.comparingInt(line -> Integer.parseInt(line.split(",")[0]))).toList();
    }

    private static int jsonId(String line) {
        return Integer.parseInt(line.substring("{\"id\":".length(), line.indexOf(',')));
    }
}
