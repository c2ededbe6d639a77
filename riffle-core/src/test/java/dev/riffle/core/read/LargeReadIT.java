package dev.riffle.core.read;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Five million rows read by a client JVM with a 256 MB heap: the read streams, it does not pile up. */
@ExtendWith(LocalClusterExtension.class)
class LargeReadIT {
    private static final int ROWS = 5_000_000;
    private static final Pattern RESULT = Pattern.compile("rows=(\\d+) idSum=(\\d+) peakHeapBytes=(\\d+)");

    @Test
    void fiveMillionRowsWithA256MegabyteHeap(LocalCluster cluster, Connection connection, TestNames names,
            @TempDir Path tmp) throws Exception {
        TablePath path = names.table("five_million");
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).column("amount", DataTypes.BIGINT())
                .column("price", DataTypes.DOUBLE()).column("ts", DataTypes.TIMESTAMP(3)).build();
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(4).build(), false).get();
        }
        TimestampNtz ts = TimestampNtz.fromLocalDateTime(LocalDateTime.of(2024, 1, 1, 0, 0));
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < ROWS; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("customer-" + (i % 1000)), (long) i, i * 0.5, ts));
            }
            writer.flush();
        }

        Path output = tmp.resolve("probe.txt");
        Process probe = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                        "-cp", System.getProperty("java.class.path"),
                        LargeReadProbe.class.getName(), cluster.bootstrapServers(), path.toString()))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        assertThat(probe.waitFor(5, TimeUnit.MINUTES)).as("probe finished").isTrue();
        String printed = Files.readString(output, UTF_8);
        assertThat(probe.exitValue()).as("probe exit code; output:%n%s", printed).isZero();
        Matcher result = RESULT.matcher(printed);
        assertThat(result.find()).as("probe output:%n%s", printed).isTrue();
        assertThat(Long.parseLong(result.group(1))).isEqualTo(ROWS);
        assertThat(Long.parseLong(result.group(2))).isEqualTo((long) ROWS * (ROWS - 1) / 2);
        long peakHeap = Long.parseLong(result.group(3));
        assertThat(peakHeap).isLessThan(256L << 20);
        System.out.printf("5M rows read with -Xmx256m; peak heap %.1f MB%n", peakHeap / 1048576.0);
    }
}
