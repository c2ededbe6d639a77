package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.createTable;
import static dev.riffle.sql.SqlFixtures.query;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.sql.catalog.FlussRootSchema;
import dev.riffle.sql.exec.FlussSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A join without an equality reads each table once per execution, not its inner table once per
 * outer row; a join of many tables joins them along their conditions.
 */
@ExtendWith(LocalClusterExtension.class)
class JoinReadsIT {
    private static final Schema NUMBERS = Schema.newBuilder().column("n", DataTypes.INT()).build();

    @Test
    void nestedLoopJoinsReadTheirInnerTableOnce(LocalCluster cluster, org.apache.fluss.client.Connection fluss,
            TestNames names) throws Exception {
        TablePath outer = numbers(fluss, names.table("outer_rows"), 2_000);
        TablePath inner = numbers(fluss, names.table("inner_rows"), 5);
        String a = outer.getDatabaseName() + "." + outer.getTableName();
        String b = inner.getDatabaseName() + "." + inner.getTableName();
        try (Connection sql = connect(cluster)) {
            FlussSession session = sql.unwrap(CalciteConnection.class).getRootSchema().unwrap(FlussRootSchema.class)
                    .session();
            long before = session.readsRequested();
            assertThat(query(sql, "SELECT count(*) FROM " + a + ", " + b)).containsExactly("10000");
            assertThat(session.readsRequested() - before).isEqualTo(2);

            before = session.readsRequested();
            assertThat(query(sql, "SELECT count(*) FROM " + a + " x JOIN " + b + " y ON x.n < y.n"))
                    .containsExactly("10"); // outer 0..1999 below inner 0..4: 0+1+2+3+4
            assertThat(session.readsRequested() - before).isEqualTo(2);

            // each execution reads the tables as they are then
            try (PreparedStatement count = sql.prepareStatement("SELECT count(*) FROM " + a + ", " + b)) {
                assertThat(SqlFixtures.rows(count.executeQuery())).containsExactly("10000");
                append(fluss, inner, 5);
                assertThat(SqlFixtures.rows(count.executeQuery())).containsExactly("20000");
            }
        }
    }

    @Test
    void manyTablesJoinAlongTheirConditionsNotInTheirFromOrder(LocalCluster cluster,
            org.apache.fluss.client.Connection fluss, TestNames names) throws Exception {
        // fourteen primary-key tables of ten rows, each joined to the next by an equality, listed so that
        // neighbours in FROM share none, as SQLite's select5.test writes them: joined in FROM order they
        // are cross products that stop at the statement's budget
        int count = 14;
        String db = names.database("chain");
        List<String> from = new ArrayList<>();
        List<String> conditions = new ArrayList<>();
        try (Connection connection = connect(cluster); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            for (int t = 1; t <= count; t++) {
                statement.execute("CREATE TABLE " + db + ".t" + t + " (a" + t + " INT, b" + t + " INT, PRIMARY KEY (a"
                        + t + ") NOT ENFORCED)");
                StringBuilder rows = new StringBuilder();
                for (int i = 1; i <= 10; i++) {
                    rows.append(i > 1 ? ", " : "").append("(").append(i).append(", ").append(11 - i).append(")");
                }
                statement.execute("INSERT INTO " + db + ".t" + t + " VALUES " + rows);
                from.add(db + ".t" + t);
                if (t > 1) {
                    conditions.add("a" + (t - 1) + " = b" + t);
                }
            }
            List<String> interleaved = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                interleaved.add(from.get(i % 2 == 0 ? i / 2 : count / 2 + i / 2)); // t1, t8, t2, t9, ...
            }
            // a(t-1) = b(t) = 11 - a(t): the row of t1 with a1 = 3 meets a2 = 8, a3 = 3, ... a14 = 8
            String sql = "SELECT count(*), max(a14) FROM " + String.join(", ", interleaved) + " WHERE "
                    + String.join(" AND ", conditions) + " AND a1 = 3";
            assertThat(query(connection, sql)).containsExactly("1|8");
            assertThat(SqlFixtures.explain(connection, sql)).contains("Join").doesNotContain("condition=[true]");
        }
    }

    private static TablePath numbers(org.apache.fluss.client.Connection fluss, TablePath path, int count)
            throws Exception {
        createTable(fluss, path, NUMBERS, 2);
        append(fluss, path, count);
        return path;
    }

    private static void append(org.apache.fluss.client.Connection fluss, TablePath path, int count) throws SQLException {
        try (Table table = fluss.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < count; i++) {
                writer.append(GenericRow.of(i));
            }
            writer.flush();
        } catch (Exception e) {
            throw new SQLException(e);
        }
    }
}
