package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.explain;
import static dev.riffle.sql.SqlFixtures.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.Riffle;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalClusterExtension.class)
class DdlDmlIT {

    @Test
    void createsDatabasesAndTablesWithKeysPartitionsAndOptions(LocalCluster cluster,
            org.apache.fluss.client.Connection fluss, TestNames names) throws Exception {
        String db = names.database("ddl");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db + " COMMENT 'made by SQL'");
            statement.execute("CREATE DATABASE IF NOT EXISTS " + db);
            statement.execute("CREATE TABLE " + db + ".orders (\n"
                    + "  id BIGINT,\n"
                    + "  region STRING COMMENT 'where',\n"
                    + "  amount DECIMAL(10, 2) NOT NULL,\n"
                    + "  note VARCHAR(20),\n"
                    + "  tags ARRAY<STRING>,\n"
                    + "  at TIMESTAMP_LTZ(3),\n"
                    + "  PRIMARY KEY (id, region) NOT ENFORCED\n"
                    + ") COMMENT 'orders' PARTITIONED BY (region)\n"
                    + "WITH ('bucket.num' = '3', 'bucket.key' = 'id', 'table.auto-partition.enabled' = 'false',"
                    + " 'owner' = 'team-a')");
            try (Admin admin = fluss.getAdmin()) {
                TableInfo info = admin.getTableInfo(TablePath.of(db, "orders")).get();
                assertThat(info.getPrimaryKeys()).containsExactly("id", "region");
                assertThat(info.getPartitionKeys()).containsExactly("region");
                assertThat(info.getBucketKeys()).containsExactly("id");
                assertThat(info.getNumBuckets()).isEqualTo(3);
                assertThat(info.getRowType().getTypeAt(2)).isEqualTo(DataTypes.DECIMAL(10, 2).copy(false));
                assertThat(info.getRowType().getTypeAt(3)).isEqualTo(DataTypes.STRING());
                assertThat(info.getRowType().getTypeAt(4)).isEqualTo(DataTypes.ARRAY(DataTypes.STRING()));
                assertThat(info.getComment()).contains("orders");
                assertThat(info.getCustomProperties().toMap()).containsEntry("owner", "team-a");
                assertThat(info.getProperties().toMap()).containsEntry("table.auto-partition.enabled", "false");
                assertThat(admin.getDatabaseInfo(db).get().getDatabaseDescriptor().getComment()).contains("made by SQL");
            }
            // The new table is visible to the same connection at once.
            assertThat(query(sql, "SELECT count(*) FROM " + db + ".orders")).containsExactly("0");

            assertThatThrownBy(() -> statement.execute("CREATE TABLE " + db + ".orders (id INT)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("already exists")
                    .hasMessageContaining("IF NOT EXISTS");
            assertThatThrownBy(() -> statement.execute("DROP DATABASE " + db))
                    .isInstanceOf(SQLException.class).hasMessageContaining("CASCADE");
            statement.execute("DROP TABLE " + db + ".orders");
            statement.execute("DROP TABLE IF EXISTS " + db + ".orders");
            assertThatThrownBy(() -> query(sql, "SELECT * FROM " + db + ".orders"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("'orders' not found");
            statement.execute("DROP DATABASE " + db);
            try (Admin admin = fluss.getAdmin()) {
                assertThat(admin.databaseExists(db).get()).isFalse();
            }
        }
    }

    @Test
    void badDdlNamesWhatIsWrong(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("badddl");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            assertThatThrownBy(() -> statement.execute("CREATE TABLE " + db + ".t (id INT, v FOO)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("Column 'v' has type 'FOO'")
                    .hasMessageContaining("BIGINT");
            assertThatThrownBy(() -> statement.execute("CREATE TABLE " + db + ".t (id INT PRIMARY KEY, v INT"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("expected ')'");
            assertThatThrownBy(() -> statement.execute("CREATE TABLE " + db + ".t (id INT) WITH ('bucket.num'='x')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("'bucket.num' must be a whole number");
            assertThatThrownBy(() -> statement.execute("CREATE VIEW v AS SELECT 1"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("Unsupported statement CREATE VIEW");
            assertThatThrownBy(() -> statement.execute("CREATE TABLE t (id INT)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("names no database");
            assertThatThrownBy(() -> statement.execute("DROP TABLE " + db + ".missing"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("IF EXISTS");
            assertThatThrownBy(() -> query(sql, "SELECT * FROM no_such_db_" + db + ".t"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("databases: [").hasMessageContaining(db);
            assertThatThrownBy(() -> statement.execute("CREATE TABLE no_such_db_" + db + ".t (id INT)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("Databases: [");
            // the default schema of the connection names the database
            try (Connection scoped = java.sql.DriverManager.getConnection(
                    "jdbc:riffle://" + cluster.bootstrapServers() + ";schema=" + db);
                    Statement s = scoped.createStatement()) {
                s.execute("CREATE TABLE t (id INT)");
                assertThat(query(scoped, "SELECT count(*) FROM t")).containsExactly("0");
                // an unknown column is named together with the columns there are
                assertThatThrownBy(() -> query(scoped, "SELECT ID FROM t")).isInstanceOf(SQLException.class)
                        .hasMessageContaining("Column 'ID' not found").hasMessageContaining("columns: " + db + ".t(id)");
                assertThatThrownBy(() -> query(sql, "SELECT x.nope FROM " + db + ".t AS x JOIN " + db
                        + ".t AS y ON x.id = y.id")).hasMessageContaining("columns: " + db + ".t(id)");
            }
        }
    }

    @Test
    void insertAppendsToLogTablesAndUpsertsIntoPrimaryKeyTables(LocalCluster cluster, TestNames names)
            throws Exception {
        String db = names.database("dml");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id INT, kind STRING, amount DECIMAL(8, 2), ts TIMESTAMP(3),"
                    + " \"day\" DATE) WITH ('bucket.num' = '2')");
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".events VALUES "
                    + "(1, 'a', 1.50, TIMESTAMP '2026-01-02 03:04:05.678', DATE '2026-01-02'), "
                    + "(2, 'b', NULL, NULL, NULL), (3, 'a', 3.25, NULL, NULL)")).isEqualTo(3);
            assertThat(explain(sql, "INSERT INTO " + db + ".events (id, kind) VALUES (9, 'z')"))
                    .contains("FlussTableModify").contains("write=[Append]");
            assertThat(query(sql, "SELECT id, kind, amount, ts, \"day\" FROM " + db + ".events ORDER BY id")).containsExactly(
                    "1|a|1.50|2026-01-02 03:04:05.678|2026-01-02", "2|b|null|null|null", "3|a|3.25|null|null");

            // INSERT ... SELECT, with a parameter
            statement.execute("CREATE TABLE " + db + ".totals (kind STRING, total DECIMAL(18, 2), n BIGINT,"
                    + " PRIMARY KEY (kind) NOT ENFORCED) WITH ('bucket.num' = '2')");
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db + ".totals SELECT kind, sum(amount),"
                    + " count(*) FROM " + db + ".events WHERE id >= ? GROUP BY kind")) {
                insert.setInt(1, 1);
                assertThat(insert.executeUpdate()).isEqualTo(2);
            }
            assertThat(query(sql, "SELECT * FROM " + db + ".totals ORDER BY kind"))
                    .containsExactly("a|4.75|2", "b|null|1");
            // an INSERT on a primary-key table is an upsert
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".totals VALUES ('a', 100, 7)")).isEqualTo(1);
            assertThat(query(sql, "SELECT * FROM " + db + ".totals WHERE kind = 'a'")).containsExactly("a|100.00|7");
            assertThat(explain(sql, "INSERT INTO " + db + ".totals VALUES ('c', 1, 1)")).contains("write=[Upsert]");

            // UPDATE and DELETE by key, found by a point lookup
            assertThat(statement.executeUpdate("UPDATE " + db + ".totals SET n = n + 1 WHERE kind = 'a'"))
                    .isEqualTo(1);
            assertThat(query(sql, "SELECT n FROM " + db + ".totals WHERE kind = 'a'")).containsExactly("8");
            assertThat(explain(sql, "DELETE FROM " + db + ".totals WHERE kind = 'a'"))
                    .contains("write=[DeleteByKey]").contains("PointLookup[kind='a']");
            try (PreparedStatement delete = sql.prepareStatement("DELETE FROM " + db + ".totals WHERE kind = ?")) {
                delete.setString(1, "a");
                assertThat(delete.executeUpdate()).isEqualTo(1);
                delete.setString(1, "nope");
                assertThat(delete.executeUpdate()).isZero();
            }
            assertThat(query(sql, "SELECT kind FROM " + db + ".totals")).containsExactly("b");
        }
        // what SQL wrote reads back identically through the Java reader
        try (Riffle riffle = Riffle.connect(cluster.bootstrapServers())) {
            long rows = 0;
            try (var reader = riffle.table(TablePath.of(db, "events")).read().createReader()) {
                while (reader.hasNext()) {
                    try (var batch = reader.next()) {
                        rows += batch.root().getRowCount();
                    }
                }
            }
            assertThat(rows).isEqualTo(3);
        }
    }

    @Test
    void arraysMapsAndRowsAreSqlTypes(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("nested");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".docs (id INT, tags ARRAY<STRING>, counts MAP<STRING, BIGINT>,"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')");
            statement.execute("CREATE TABLE " + db + ".docs_log (id INT, tags ARRAY<STRING>, counts MAP<STRING, BIGINT>)"
                    + " WITH ('bucket.num' = '1')");
            for (String table : new String[] {"docs", "docs_log"}) {
                assertThat(statement.executeUpdate("INSERT INTO " + db + "." + table + " VALUES"
                        + " (1, ARRAY['a', 'b'], MAP['x', CAST(1 AS BIGINT), 'y', CAST(2 AS BIGINT)]),"
                        + " (2, ARRAY['c', CAST(NULL AS VARCHAR)], NULL)")).isEqualTo(2);
                // read from the log (Arrow) and, for the PK table, by point lookup (Fluss rows)
                assertThat(query(sql, "SELECT id, tags[2], cardinality(tags), counts['y'] FROM " + db + "." + table
                        + " ORDER BY id")).containsExactly("1|b|2|2", "2|null|2|null");
                try (var rs = statement.executeQuery("SELECT tags, counts FROM " + db + "." + table + " WHERE id = 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat((Object[]) rs.getArray(1).getArray()).containsExactly("a", "b");
                    assertThat(rs.getObject(2)).isEqualTo(java.util.Map.of("x", 1L, "y", 2L));
                }
            }
            assertThat(explain(sql, "SELECT tags FROM " + db + ".docs WHERE id = 1")).contains("PointLookup");

            // ROW columns are SQL rows: fields by name, from the log and from lookups
            statement.execute("CREATE TABLE " + db + ".points (id INT, p ROW<x INT, label STRING>,"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')");
            statement.executeUpdate("INSERT INTO " + db + ".points VALUES (1, ROW(10, 'a'))");
            statement.executeUpdate("INSERT INTO " + db + ".points VALUES (2, NULL)");
            assertThat(query(sql, "SELECT t.id, t.p.x, t.p.label FROM " + db + ".points t ORDER BY t.id"))
                    .containsExactly("1|10|a", "2|null|null");
            assertThat(query(sql, "SELECT t.p.label FROM " + db + ".points t WHERE t.id = 1")).containsExactly("a");
            assertThat(query(sql, "SELECT id FROM " + db + ".points t WHERE t.p.x = 10")).containsExactly("1");
        }
    }

    @Test
    void insertSelectWritesMoreRowsThanOneChunk(LocalCluster cluster, org.apache.fluss.client.Connection fluss,
            TestNames names) throws Exception {
        String db = names.database("bulk");
        int rows = 25_000; // two full chunks of 10,000 and a partial one
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".src (id BIGINT, label STRING) WITH ('bucket.num' = '2')");
            statement.execute("CREATE TABLE " + db + ".dst (id BIGINT, label STRING, PRIMARY KEY (id) NOT ENFORCED)"
                    + " WITH ('bucket.num' = '2')");
            try (var table = fluss.getTable(TablePath.of(db, "src"))) {
                var writer = table.newAppend().createWriter();
                for (long i = 0; i < rows; i++) {
                    writer.append(org.apache.fluss.row.GenericRow.of(i,
                            org.apache.fluss.row.BinaryString.fromString("l" + (i % 7))));
                }
                writer.flush();
            }
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".dst SELECT id, label FROM " + db + ".src"))
                    .isEqualTo(rows);
            long expectedSum = (long) rows * (rows - 1) / 2;
            assertThat(query(sql, "SELECT count(*), sum(id), count(DISTINCT label) FROM " + db + ".dst"))
                    .containsExactly(rows + "|" + expectedSum + "|7");
        }
    }

    @Test
    void alterTableAddsColumnsThatOlderRowsReadAsNull(LocalCluster cluster, org.apache.fluss.client.Connection fluss,
            TestNames names) throws Exception {
        String db = names.database("alter");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id INT, kind STRING) WITH ('bucket.num' = '2')");
            statement.execute("CREATE TABLE " + db + ".users (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED)"
                    + " WITH ('bucket.num' = '2')");
            statement.executeUpdate("INSERT INTO " + db + ".events VALUES (1, 'a'), (2, 'b')");
            statement.executeUpdate("INSERT INTO " + db + ".users VALUES (1, 'ann'), (2, 'bob')");
            // A lookup before the change keeps a handle of the old schema in this session.
            assertThat(query(sql, "SELECT * FROM " + db + ".users WHERE id = 1")).containsExactly("1|ann");

            statement.execute("ALTER TABLE " + db + ".events ADD amount DECIMAL(10, 2) COMMENT 'paid'");
            statement.execute("ALTER TABLE " + db + ".users ADD (email STRING, age INT)");
            statement.executeUpdate("INSERT INTO " + db + ".events VALUES (3, 'c', 9.50)");
            statement.executeUpdate("INSERT INTO " + db + ".users VALUES (2, 'bob', 'bob@x', 41), (3, 'cy', NULL, 7)");

            assertThat(query(sql, "SELECT id, kind, amount FROM " + db + ".events ORDER BY id"))
                    .containsExactly("1|a|null", "2|b|null", "3|c|9.50");
            assertThat(query(sql, "SELECT amount, id FROM " + db + ".events WHERE amount IS NULL ORDER BY id"))
                    .containsExactly("null|1", "null|2");
            assertThat(query(sql, "SELECT * FROM " + db + ".users ORDER BY id"))
                    .containsExactly("1|ann|null|null", "2|bob|bob@x|41", "3|cy|null|7");
            assertThat(query(sql, "SELECT * FROM " + db + ".users WHERE id = 1")).containsExactly("1|ann|null|null");
            assertThat(query(sql, "SELECT * FROM " + db + ".users WHERE id = 2")).containsExactly("2|bob|bob@x|41");
            assertThat(query(sql, "SELECT id, _change_type, email FROM " + db + ".\"users$changelog\" ORDER BY _log_offset"))
                    .containsExactlyInAnyOrder("1|+I|null", "2|+I|null", "2|-U|null", "2|+U|bob@x", "3|+I|null");

            statement.execute("ALTER TABLE " + db + ".users SET ('owner' = 'team-b')");
            try (Admin admin = fluss.getAdmin()) {
                TableInfo users = admin.getTableInfo(TablePath.of(db, "users")).get();
                assertThat(users.getSchemaId()).isEqualTo(2);
                assertThat(users.getCustomProperties().toMap()).containsEntry("owner", "team-b");
                assertThat(admin.getTableInfo(TablePath.of(db, "events")).get().getSchema().getColumn("amount")
                        .getComment()).contains("paid");
            }
            statement.execute("ALTER TABLE " + db + ".users RESET ('owner')");
            try (Admin admin = fluss.getAdmin()) {
                assertThat(admin.getTableInfo(TablePath.of(db, "users")).get().getCustomProperties().toMap())
                        .doesNotContainKey("owner");
            }
        }
    }

    @Test
    void badWritesNameTheProblemAndWriteNothing(LocalCluster cluster, org.apache.fluss.client.Connection fluss,
            TestNames names) throws Exception {
        String db = names.database("baddml");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".log (id INT, small TINYINT) WITH ('bucket.num' = '1')");
            statement.execute("CREATE TABLE " + db + ".pk (id INT, v STRING NOT NULL, PRIMARY KEY (id) NOT ENFORCED)"
                    + " WITH ('bucket.num' = '1')");
            // row 2 breaks NOT NULL: nothing of the statement is written
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db + ".pk VALUES (1, 'a'), (2, 'b'), (?, ?)")) {
                insert.setInt(1, 3);
                insert.setNull(2, java.sql.Types.VARCHAR);
                assertThatThrownBy(insert::executeUpdate).isInstanceOf(SQLException.class)
                        .hasMessageContaining("Row 2").hasMessageContaining("column v is NOT NULL")
                        .hasMessageContaining("nothing was written");
            }
            assertThatThrownBy(() -> statement.execute("ALTER TABLE " + db + ".log ADD x INT NOT NULL"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("Column 'x' cannot be added")
                    .hasMessageContaining("must be nullable");
            assertThatThrownBy(() -> statement.execute("ALTER TABLE " + db + ".log ADD small INT"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("small already exists");
            assertThatThrownBy(() -> statement.execute("ALTER TABLE " + db + ".nothing ADD x INT"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("nothing")
                    .hasMessageContaining("ALTER TABLE IF EXISTS");
            statement.execute("ALTER TABLE IF EXISTS " + db + ".nothing ADD x INT");
            assertThatThrownBy(() -> statement.execute("ALTER TABLE " + db + ".log SET ('table.log.ttl' = '1h')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("table.log.ttl")
                    .hasMessageContaining("not supported to alter");
            assertThatThrownBy(() -> statement.execute("ALTER TABLE " + db + ".log ADD x FANCY"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("FANCY");
            try (Admin admin = fluss.getAdmin()) {
                TableInfo unchanged = admin.getTableInfo(TablePath.of(db, "log")).get();
                assertThat(unchanged.getSchemaId()).isEqualTo(1);
                assertThat(unchanged.getProperties().toMap()).doesNotContainKey("table.log.ttl");
            }
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + db + ".log VALUES (1, 300)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("300");
            assertThat(query(sql, "SELECT count(*) FROM " + db + ".log")).containsExactly("0");
            assertThatThrownBy(() -> statement.executeUpdate("DELETE FROM " + db + ".log WHERE id = 1"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("log table, which is append-only");
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + db + ".\"pk$log\" VALUES (1, 'x')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("read-only view");
            assertThatThrownBy(() -> statement.executeUpdate("UPDATE " + db + ".pk SET id = 2 WHERE id = 1"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("cannot change primary-key column id");
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + db + ".pk (id) VALUES (1)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("v");
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + db + ".pk VALUES (1, 'a', 'extra')"))
                    .isInstanceOf(SQLException.class);
            assertThat(query(sql, "SELECT count(*) FROM " + db + ".pk")).containsExactly("0");

            // a string compared with a number is an error naming the value, not a crash of the caller
            statement.executeUpdate("INSERT INTO " + db + ".log VALUES (1, 1)");
            assertThatThrownBy(() -> query(sql, "SELECT * FROM " + db + ".log WHERE id = 'abc'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("\"abc\"")
                    .hasMessageContaining("numeric column");
        }
    }
}
