package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.createTable;
import static dev.riffle.sql.SqlFixtures.explain;
import static dev.riffle.sql.SqlFixtures.explainPrepared;
import static dev.riffle.sql.SqlFixtures.query;
import static dev.riffle.sql.SqlFixtures.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalClusterExtension.class)
class AccessPathIT {
    static final Schema USERS = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING())
            .column("age", DataTypes.INT()).primaryKey("id").build();
    static final Schema ORDERS = Schema.newBuilder().column("order_id", DataTypes.BIGINT())
            .column("user_id", DataTypes.INT()).column("amount", DataTypes.DOUBLE()).build();
    static final Schema EVENTS = Schema.newBuilder().column("tenant", DataTypes.STRING())
            .column("seq", DataTypes.INT()).column("payload", DataTypes.STRING()).primaryKey("tenant", "seq").build();

    /** users: ids 0..19, name u<i>, age 20+i; then id 3 updated to age 99 and id 4 deleted. */
    static TablePath users(Connection fluss, TestNames names) throws Exception {
        TablePath path = names.table("users");
        createTable(fluss, path, USERS, 2, "id");
        try (Table table = fluss.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = 0; i < 20; i++) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString("u" + i), 20 + i));
            }
            writer.upsert(GenericRow.of(3, BinaryString.fromString("u3"), 99));
            writer.delete(GenericRow.of(4, BinaryString.fromString("u4"), 24));
            writer.flush();
        }
        return path;
    }

    static TablePath orders(Connection fluss, TestNames names) throws Exception {
        TablePath path = names.table("orders");
        createTable(fluss, path, ORDERS, 3);
        try (Table table = fluss.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (long i = 0; i < 60; i++) {
                writer.append(GenericRow.of(i, (int) (i % 20), (double) i));
            }
            writer.flush();
        }
        return path;
    }

    @Test
    void pointLookupWithLiteralsAndParameters(LocalCluster cluster, Connection fluss, TestNames names) throws Exception {
        TablePath path = users(fluss, names);
        String t = path.getDatabaseName() + "." + path.getTableName();
        try (var sql = connect(cluster)) {
            String plan = explain(sql, "SELECT name, age FROM " + t + " WHERE id = 3");
            assertThat(plan).contains("FlussScan").contains("PointLookup[id=3]").contains("columns=[[name, age]]")
                    .doesNotContain("Filter");
            assertThat(query(sql, "SELECT name, age FROM " + t + " WHERE id = 3")).containsExactly("u3|99");
            assertThat(query(sql, "SELECT * FROM " + t + " WHERE id = 4")).isEmpty();
            // A conjunct the lookup cannot absorb stays above it.
            String residual = explain(sql, "SELECT name FROM " + t + " WHERE id = 5 AND age > 30");
            assertThat(residual).contains("PointLookup[id=5]").contains("Calc").contains(">");
            assertThat(query(sql, "SELECT name FROM " + t + " WHERE id = 5 AND age > 30")).isEmpty();
            assertThat(query(sql, "SELECT name FROM " + t + " WHERE id = 15 AND age > 30")).containsExactly("u15");
            // IN-list: one batch of lookups.
            assertThat(explain(sql, "SELECT id FROM " + t + " WHERE id IN (1, 2, 4)")).contains("BatchLookup");
            assertThat(query(sql, "SELECT id FROM " + t + " WHERE id IN (1, 2, 4) ORDER BY id"))
                    .containsExactly("1", "2");

            try (PreparedStatement lookup = sql.prepareStatement("SELECT name, age FROM " + t + " WHERE id = ?")) {
                assertThat(SqlFixtures.explainPrepared(sql, "SELECT name, age FROM " + t + " WHERE id = ?", 1))
                        .contains("PointLookup[id=?0]");
                for (int id : new int[] {0, 3, 4, 19, 42}) {
                    lookup.setInt(1, id);
                    List<String> expected = id == 4 || id == 42 ? List.of()
                            : List.of("u" + id + "|" + (id == 3 ? 99 : 20 + id));
                    assertThat(rows(lookup.executeQuery())).as("id %s", id).isEqualTo(expected);
                }
                lookup.setLong(1, 7L); // another number class is converted
                assertThat(rows(lookup.executeQuery())).containsExactly("u7|27");
            }
        }
    }

    @Test
    void prefixLookupOnTheBucketKey(LocalCluster cluster, Connection fluss, TestNames names) throws Exception {
        TablePath path = names.table("events");
        createTable(fluss, path, EVENTS, 2, "tenant");
        try (Table table = fluss.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (String tenant : List.of("a", "b", "c")) {
                for (int seq = 0; seq < 5; seq++) {
                    writer.upsert(GenericRow.of(BinaryString.fromString(tenant), seq, BinaryString.fromString(tenant + seq)));
                }
            }
            writer.flush();
        }
        String t = path.getDatabaseName() + "." + path.getTableName();
        try (var sql = connect(cluster)) {
            assertThat(explain(sql, "SELECT seq FROM " + t + " WHERE tenant = 'b'")).contains("PrefixLookup[tenant='b']");
            assertThat(query(sql, "SELECT seq, payload FROM " + t + " WHERE tenant = 'b' ORDER BY seq"))
                    .containsExactly("0|b0", "1|b1", "2|b2", "3|b3", "4|b4");
            // Full key: a point lookup beats the prefix lookup.
            assertThat(explain(sql, "SELECT payload FROM " + t + " WHERE tenant = 'c' AND seq = 2"))
                    .contains("PointLookup[tenant='c' AND seq=2]");
            assertThat(query(sql, "SELECT payload FROM " + t + " WHERE tenant = 'c' AND seq = 2")).containsExactly("c2");
            try (PreparedStatement prefix = sql.prepareStatement("SELECT count(*) FROM " + t + " WHERE tenant = ?")) {
                prefix.setString(1, "a");
                assertThat(rows(prefix.executeQuery())).containsExactly("5");
                prefix.setString(1, "zz");
                assertThat(rows(prefix.executeQuery())).containsExactly("0");
            }
        }
    }

    @Test
    void limitScansStopEarly(LocalCluster cluster, Connection fluss, TestNames names) throws Exception {
        TablePath log = orders(fluss, names);
        TablePath pk = users(fluss, names);
        try (var sql = connect(cluster)) {
            String orders = log.getDatabaseName() + "." + log.getTableName();
            String users = pk.getDatabaseName() + "." + pk.getTableName();
            assertThat(explain(sql, "SELECT order_id FROM " + orders + " LIMIT 5")).contains("LimitScan[5, LogScan]")
                    .doesNotContain("EnumerableLimit");
            assertThat(query(sql, "SELECT order_id FROM " + orders + " LIMIT 5")).hasSize(5);
            assertThat(explain(sql, "SELECT * FROM " + users + " LIMIT 4")).contains("LimitScan[4, kv]");
            List<String> some = query(sql, "SELECT id, age FROM " + users + " LIMIT 4");
            assertThat(some).hasSize(4).doesNotContain("4|24").allSatisfy(row -> assertThat(row).isNotEqualTo("3|23"));
            // ORDER BY keeps the sort; a filter keeps the limit above it.
            assertThat(explain(sql, "SELECT * FROM " + orders + " ORDER BY amount LIMIT 5")).doesNotContain("LimitScan");
            assertThat(query(sql, "SELECT order_id FROM " + orders + " WHERE amount >= 10 LIMIT 3"))
                    .hasSize(3).allSatisfy(row -> assertThat(Long.parseLong(row)).isGreaterThanOrEqualTo(10));
            // LIMIT ? is bound per execution, on the log and on the KV limit scan
            assertThat(explainPrepared(sql, "SELECT order_id FROM " + orders + " LIMIT ?", 2))
                    .contains("LimitScan[?0, LogScan]").doesNotContain("EnumerableLimit");
            assertThat(explainPrepared(sql, "SELECT id FROM " + users + " LIMIT ?", 2)).contains("LimitScan[?0, kv]");
            try (var limited = sql.prepareStatement("SELECT order_id FROM " + orders + " LIMIT ?");
                    var kv = sql.prepareStatement("SELECT id FROM " + users + " LIMIT ?")) {
                for (int rows : new int[] {0, 1, 7}) {
                    limited.setInt(1, rows);
                    assertThat(SqlFixtures.rows(limited.executeQuery())).hasSize(rows);
                    kv.setInt(1, rows);
                    assertThat(SqlFixtures.rows(kv.executeQuery())).hasSize(rows);
                }
            }
        }
    }

    @Test
    void projectionsAreReadFromFluss(LocalCluster cluster, Connection fluss, TestNames names) throws Exception {
        TablePath log = orders(fluss, names);
        String orders = log.getDatabaseName() + "." + log.getTableName();
        try (var sql = connect(cluster)) {
            // The read applies the condition itself, so it returns only the column the query uses.
            assertThat(explain(sql, "SELECT amount FROM " + orders + " WHERE user_id = 3"))
                    .contains("LogScan[user_id = 3]").contains("columns=[[amount]]").doesNotContain("$condition");
            assertThat(query(sql, "SELECT sum(amount) FROM " + orders + " WHERE user_id = 3"))
                    .containsExactly(String.valueOf(3.0 + 23 + 43));
        }
    }

    @Test
    void joinsAndAggregatesOverLogAndPrimaryKeyTables(LocalCluster cluster, Connection fluss, TestNames names)
            throws Exception {
        TablePath log = orders(fluss, names);
        TablePath pk = users(fluss, names);
        String orders = log.getDatabaseName() + "." + log.getTableName();
        String users = pk.getDatabaseName() + "." + pk.getTableName();
        try (var sql = connect(cluster)) {
            assertThat(explain(sql, "SELECT * FROM " + users)).contains("SnapshotScan");
            assertThat(query(sql, "SELECT count(*), sum(age) FROM " + users))
                    .containsExactly("19|" + (java.util.stream.IntStream.range(0, 20).filter(i -> i != 4)
                            .map(i -> i == 3 ? 99 : 20 + i).sum()));
            List<String> joined = query(sql, "SELECT u.name, count(*) AS n, sum(o.amount) AS total FROM " + orders
                    + " o JOIN " + users + " u ON o.user_id = u.id WHERE u.id < 6 GROUP BY u.name ORDER BY u.name");
            assertThat(joined).containsExactly("u0|3|60.0", "u1|3|63.0", "u2|3|66.0", "u3|3|69.0", "u5|3|75.0");
        }
    }

    @Test
    void changelogAndLogViews(LocalCluster cluster, Connection fluss, TestNames names) throws Exception {
        TablePath pk = users(fluss, names);
        String users = pk.getDatabaseName() + ".\"" + pk.getTableName();
        try (var sql = connect(cluster)) {
            assertThat(query(sql, "SELECT _change_type, age FROM " + users + "$changelog\" WHERE id = 3 ORDER BY _log_offset"))
                    .containsExactly("+I|23", "-U|23", "+U|99");
            assertThat(query(sql, "SELECT _change_type FROM " + users + "$changelog\" WHERE id = 4 ORDER BY _log_offset"))
                    .containsExactly("+I", "-D");
            assertThat(query(sql, "SELECT count(*) FROM " + users + "$changelog\"")).containsExactly("23");
            assertThat(query(sql, "SELECT count(*) FROM " + users + "$log\"")).containsExactly("19");
        }
    }

    @Test
    void unknownObjectsAreNamed(LocalCluster cluster, Connection fluss, TestNames names) throws Exception {
        TablePath pk = users(fluss, names);
        try (var sql = connect(cluster)) {
            assertThatThrownBy(() -> query(sql, "SELECT * FROM " + pk.getDatabaseName() + ".nope"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("'nope'")
                    .hasMessageContaining(pk.getTableName());
            assertThatThrownBy(() -> query(sql, "SELECT nope FROM " + pk.getDatabaseName() + "." + pk.getTableName()))
                    .isInstanceOf(SQLException.class).hasMessageContaining("nope");
            assertThatThrownBy(() -> query(sql, "SELECT * FROM " + pk.getDatabaseName() + ".\"" + pk.getTableName() + "$lake\""))
                    .isInstanceOf(SQLException.class).hasMessageContaining("not datalake-enabled");
        }
    }
}
