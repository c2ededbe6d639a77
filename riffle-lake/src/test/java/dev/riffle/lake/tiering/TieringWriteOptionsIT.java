package dev.riffle.lake.tiering;

import static dev.riffle.lake.tiering.LakeReadBack.awaitLakeHoldsTheWholeLog;
import static dev.riffle.lake.tiering.LakeReadBack.lakeRows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.rpc.RetryingAdmin;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.shade.org.apache.parquet.ParquetReadOptions;
import org.apache.paimon.shade.org.apache.parquet.column.EncodingStats;
import org.apache.paimon.shade.org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.paimon.shade.org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.paimon.shade.org.apache.parquet.io.InputFile;
import org.apache.paimon.shade.org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Parquet files tiering writes: without dictionaries by default (PaimonTieringFactory's write
 * option), the table's own {@code paimon.parquet.*} settings when it has them; either way the lake
 * reads back what was written.
 *
 * <p>The pages stay v1: Parquet's v2 writer is cheaper (Paimon's writer alone 5.3-5.9 M rows/s
 * against 3.2-3.9 M, {@code LakeBenchmark tiering}), but Paimon 1.3.1's vectorized reader returns
 * NUL bytes for the shared prefix of {@code DELTA_BYTE_ARRAY} strings read after its first batch of
 * 1,024 rows (apache/paimon#9275, fixed after 1.3), so every lake read of such a file would be wrong.
 */
@ExtendWith(LocalClusterExtension.class)
class TieringWriteOptionsIT {
    private static final Schema SCHEMA = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("name", DataTypes.STRING())
            .column("amount", DataTypes.DECIMAL(10, 2)).column("seen", DataTypes.BIGINT())
            .column("at", DataTypes.TIMESTAMP(3)).build();

    @Test
    void tieredFilesHaveNoDictionariesAndV1Pages(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("plain");
        create(connection, path, Map.of());
        Map<Object, Map<String, Object>> written = append(connection, path, 3_000);
        tier(cluster, connection, path);

        List<ColumnChunkMetaData> columns = columnChunks(cluster, path);
        assertThat(columns).isNotEmpty().allSatisfy(column -> {
            EncodingStats stats = column.getEncodingStats();
            assertThat(stats.hasDictionaryPages()).as("%s without a dictionary", column.getPath()).isFalse();
            assertThat(stats.usesV2Pages()).as("%s written as v1 pages", column.getPath()).isFalse();
        });
        assertThat(lakeRows(cluster, connection, path, "id")).isEqualTo(written);
    }

    @Test
    void tableOwnDictionarySettingWins(LocalCluster cluster, Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("dictionary");
        create(connection, path, Map.of("paimon.parquet.enable.dictionary", "true"));
        Map<Object, Map<String, Object>> written = append(connection, path, 3_000);
        tier(cluster, connection, path);

        // 3,000 rows of 100 names: a dictionary Parquet keeps once it is asked to build one.
        assertThat(columnChunks(cluster, path)).filteredOn(column -> column.getPath().toDotString().equals("name"))
                .isNotEmpty().allSatisfy(column -> assertThat(column.getEncodingStats().hasDictionaryPages())
                        .as("name with a dictionary").isTrue());
        assertThat(lakeRows(cluster, connection, path, "id")).isEqualTo(written);
    }

    private static void create(Connection connection, TablePath path, Map<String, String> customProperties)
            throws Exception {
        TableDescriptor.Builder descriptor = TableDescriptor.builder().schema(SCHEMA).distributedBy(2)
                .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s");
        customProperties.forEach(descriptor::customProperty);
        RetryingAdmin.of((FlussConnection) connection).createTable(path, descriptor.build(), false).get();
    }

    /** Appends {@code rows} rows and returns them as {@link LakeReadBack} reads them back. */
    private static Map<Object, Map<String, Object>> append(Connection connection, TablePath path, int rows)
            throws Exception {
        Map<Object, Map<String, Object>> written = new TreeMap<>();
        LocalDateTime base = LocalDateTime.of(2024, 1, 1, 0, 0);
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < rows; i++) {
                BigDecimal amount = BigDecimal.valueOf(i * 7L, 2);
                LocalDateTime at = base.plusSeconds(i);
                writer.append(GenericRow.of(i, BinaryString.fromString("name-" + (i % 100)),
                        Decimal.fromBigDecimal(amount, 10, 2), (long) i * 3,
                        TimestampNtz.fromLocalDateTime(at)));
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("id", i);
                row.put("name", "name-" + (i % 100));
                row.put("amount", amount);
                row.put("seen", (long) i * 3);
                row.put("at", at);
                written.put(i, row);
            }
            writer.flush();
        }
        return written;
    }

    private static void tier(LocalCluster cluster, Connection connection, TablePath path) throws Exception {
        try (TieringService tiering = TieringServiceIT.start(cluster)) {
            awaitLakeHoldsTheWholeLog(connection, path, 2);
        }
    }

    /** The column chunks of every Parquet data file in the table's directory of the warehouse. */
    private static List<ColumnChunkMetaData> columnChunks(LocalCluster cluster, TablePath path) throws Exception {
        Path table = cluster.lakeWarehouse().resolve(path.getDatabaseName() + ".db").resolve(path.getTableName());
        List<ColumnChunkMetaData> chunks = new ArrayList<>();
        try (Stream<Path> files = Files.walk(table)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".parquet")).toList()) {
                InputFile input = new LocalInputFile(file);
                try (var stream = input.newStream()) {
                    for (BlockMetaData block : ParquetFileReader.readFooter(input, ParquetReadOptions.builder().build(),
                            stream).getBlocks()) {
                        chunks.addAll(block.getColumns());
                    }
                }
            }
        }
        return chunks;
    }
}
