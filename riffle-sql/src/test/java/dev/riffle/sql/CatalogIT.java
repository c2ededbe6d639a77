package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.explain;
import static dev.riffle.sql.SqlFixtures.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.lake.tiering.TieringService;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalClusterExtension.class)
class CatalogIT {
    static final Schema PK = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING())
            .primaryKey("id").build();
    static final Schema LOG = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build();

    @Test
    void metadataListsLiveDatabasesTablesAndColumns(LocalCluster cluster, Connection fluss, TestNames names)
            throws Exception {
        try (var sql = connect(cluster)) {
            DatabaseMetaData meta = sql.getMetaData();
            String database = names.database("shop");
            try (Admin admin = fluss.getAdmin()) {
                admin.createDatabase(database, org.apache.fluss.metadata.DatabaseDescriptor.EMPTY, false).get();
                admin.createTable(TablePath.of(database, "items"), TableDescriptor.builder().schema(PK)
                        .distributedBy(1, "id").build(), false).get();
            }
            // Created after connecting, and visible.
            assertThat(column(meta.getSchemas(), "TABLE_SCHEM")).contains(database, "fluss");
            assertThat(column(meta.getTables(null, database, "%", null), "TABLE_NAME")).containsExactly("items");
            ResultSet columns = meta.getColumns(null, database, "items", "%");
            List<String> described = new ArrayList<>();
            while (columns.next()) {
                described.add(columns.getString("COLUMN_NAME") + " " + columns.getString("TYPE_NAME") + " "
                        + columns.getString("IS_NULLABLE"));
            }
            assertThat(described).containsExactly("id INTEGER NOT NULL NO", "name VARCHAR YES");
            assertThat(query(sql, "SELECT count(*) FROM " + database + ".items")).containsExactly("0");
        }
    }

    @Test
    void datalakeTableIsReadAsTheUnionOfLakeAndLog(LocalCluster cluster, Connection fluss, TestNames names)
            throws Exception {
        TablePath log = names.table("lake_log");
        TablePath pk = names.table("lake_pk");
        try (Admin admin = fluss.getAdmin()) {
            for (TablePath path : List.of(log, pk)) {
                admin.createTable(path, TableDescriptor.builder().schema(path == pk ? PK : LOG).distributedBy(2, "id")
                        .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s").build(),
                        false).get();
            }
        }
        try (Table table = fluss.getTable(log)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < 100; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("n" + i)));
            }
            writer.flush();
        }
        try (Table table = fluss.getTable(pk)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = 0; i < 50; i++) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString("v1")));
            }
            writer.flush();
        }
        String logName = log.getDatabaseName() + ".\"" + log.getTableName();
        String pkName = pk.getDatabaseName() + ".\"" + pk.getTableName();
        try (TieringService tiering = TieringService.builder().clientConfig(cluster.clientConfig())
                .lake("paimon", cluster.lakeCatalogOptions()).pollInterval(Duration.ofMillis(200)).start();
                var sql = connect(cluster)) {
            // until the first tiering round commits, t$lake says there is no lake snapshot yet
            await().atMost(Duration.ofSeconds(90)).ignoreExceptionsMatching(e -> String.valueOf(e.getMessage())
                    .contains("no lake snapshot yet")).untilAsserted(() -> {
                assertThat(query(sql, "SELECT count(*) FROM " + logName + "$lake\"")).containsExactly("100");
                assertThat(query(sql, "SELECT count(*) FROM " + pkName + "$lake\"")).containsExactly("50");
            });
        }
        // After tiering: more rows in the log only; the union sees both, every row once.
        try (Table table = fluss.getTable(log)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 100; i < 130; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("n" + i)));
            }
            writer.flush();
        }
        try (Table table = fluss.getTable(pk)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = 0; i < 10; i++) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString("v2")));
            }
            writer.delete(GenericRow.of(49, BinaryString.fromString("v1")));
            writer.flush();
        }
        try (var sql = connect(cluster)) {
            assertThat(explain(sql, "SELECT * FROM " + logName + "\"")).contains("UnionScan");
            assertThat(query(sql, "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM " + logName + "\""))
                    .containsExactly("130|130|0|129");
            assertThat(query(sql, "SELECT count(*) FROM " + logName + "$lake\"")).containsExactly("100");
            assertThat(query(sql, "SELECT name, count(*) FROM " + pkName + "\" GROUP BY name ORDER BY name"))
                    .containsExactly("v1|39", "v2|10");
            assertThat(query(sql, "SELECT name FROM " + pkName + "\" WHERE id = 3")).containsExactly("v2");
            assertThat(explain(sql, "SELECT name FROM " + pkName + "\" WHERE id = 3")).contains("PointLookup[id=3]");

            // Filters go into the union read (Paimon prunes, the union re-checks lake and log rows) and leave the plan.
            String spanning = "SELECT id FROM " + logName + "\" WHERE id BETWEEN 98 AND 101 OR name LIKE 'n12%'";
            assertThat(explain(sql, spanning)).contains("UnionScan[").doesNotContain("$condition");
            assertThat(query(sql, spanning + " ORDER BY id")).containsExactly("12", "98", "99", "100", "101", "120",
                    "121", "122", "123", "124", "125", "126", "127", "128", "129");
            assertThat(query(sql, "SELECT count(*) FROM " + logName + "\" WHERE name <> 'n0' AND id IS NOT NULL"))
                    .containsExactly("129");
            // on a PK table the filter applies after the merge: keys 0-9 are v2 in the log, v1 in the lake
            String merged = "SELECT id, name FROM " + pkName + "\" WHERE name = 'v1' AND id < 12";
            assertThat(explain(sql, merged)).contains("UnionScan[name = 'v1' AND id < 12]").doesNotContain("$condition");
            assertThat(query(sql, merged + " ORDER BY id")).containsExactly("10|v1", "11|v1");
            try (var prepared = sql.prepareStatement("SELECT count(*) FROM " + pkName + "\" WHERE name = ?")) {
                prepared.setString(1, "v2");
                assertThat(SqlFixtures.rows(prepared.executeQuery())).containsExactly("10");
                prepared.setString(1, "v1");
                assertThat(SqlFixtures.rows(prepared.executeQuery())).containsExactly("39");
            }
            // what Fluss's predicates cannot express stays above the scan
            assertThat(explain(sql, "SELECT id FROM " + logName + "\" WHERE id + 1 = 5 AND id > 2"))
                    .contains("$condition").contains("UnionScan[id > 2]");
            assertThat(query(sql, "SELECT id FROM " + logName + "\" WHERE id + 1 = 5 AND id > 2")).containsExactly("4");
        }
    }

    private static List<String> column(ResultSet rs, String name) throws Exception {
        List<String> values = new ArrayList<>();
        while (rs.next()) {
            values.add(rs.getString(name));
        }
        return values;
    }
}
