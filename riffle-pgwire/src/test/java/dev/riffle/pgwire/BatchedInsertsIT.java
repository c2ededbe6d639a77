package dev.riffle.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Row-at-a-time INSERTs over the PostgreSQL protocol written as one unit (issue 43): a JDBC batch
 * (one extended-query pipeline up to its Sync), the statements of a transaction up to its COMMIT,
 * and literal INSERTs sent as simple queries, each read back as it was sent; a statement reads the
 * rows its transaction wrote before it; a bad row fails its own statement, the rows before it are
 * written and reported as written, the rows after it are not.
 */
@ExtendWith({LocalClusterExtension.class, PgServerExtension.class})
class BatchedInsertsIT {
    private PgWireServer server;

    @AfterEach
    void noArrowMemoryHeld() {
        if (server != null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);
        }
    }

    @Test
    void aJdbcBatchOfOneRowInsertsWritesEveryRow(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("batch");
        int rows = 5_000;
        try (Connection sql = PgJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id INT, name STRING, amount DOUBLE)");
            statement.execute("CREATE TABLE " + db + ".latest (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED)");
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db
                    + ".events (id, name, amount) VALUES (?, ?, ?)")) {
                for (int i = 0; i < rows; i++) {
                    insert.setInt(1, i);
                    insert.setString(2, "n" + i);
                    insert.setDouble(3, i * 0.5);
                    insert.addBatch();
                }
                int[] counts = insert.executeBatch();
                assertThat(counts).hasSize(rows).containsOnly(1);
            }
            // a primary-key table: the last of a key's rows in the batch is its row
            try (PreparedStatement upsert = sql.prepareStatement("INSERT INTO " + db + ".latest VALUES (?, ?)")) {
                for (int i = 0; i < 300; i++) {
                    upsert.setInt(1, i % 100);
                    upsert.setString(2, "v" + i);
                    upsert.addBatch();
                }
                assertThat(upsert.executeBatch()).hasSize(300).containsOnly(1);
            }
            assertThat(rows(statement, "SELECT count(*), sum(id), min(name), sum(amount) FROM " + db + ".events"))
                    .containsExactly(List.of("5000", Long.toString((long) rows * (rows - 1) / 2), "n0", "6248750"));
            assertThat(rows(statement, "SELECT count(*), min(name), max(name) FROM " + db + ".latest WHERE id >= 0"))
                    .containsExactly(List.of("100", "v200", "v299"));
        }
    }

    @Test
    void aTransactionReadsItsOwnRowsAndTheyAreWrittenAtCommit(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("txn");
        try (Connection sql = PgJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id INT, note STRING)");
            sql.setAutoCommit(false);
            statement.executeUpdate("INSERT INTO " + db + ".t VALUES (1, 'one')");
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db + ".t VALUES (?, ?)")) {
                insert.setInt(1, 2);
                insert.setString(2, "two");
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            assertThat(rows(statement, "SELECT count(*) FROM " + db + ".t")).containsExactly(List.of("2"));
            statement.executeUpdate("INSERT INTO " + db + ".t VALUES (3, 'three'), (4, 'four')");
            sql.commit();
            sql.setAutoCommit(true);
            assertThat(rows(statement, "SELECT id, note FROM " + db + ".t ORDER BY id")).containsExactly(
                    List.of("1", "one"), List.of("2", "two"), List.of("3", "three"), List.of("4", "four"));
        }
    }

    @Test
    void literalInsertsSentAsSimpleQueriesAreReadBackAsWritten(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        // lower case: search_path folds what it is set to, and the session finds tables under that name
        String db = names.database("literal").toLowerCase(java.util.Locale.ROOT);
        Properties simple = new Properties();
        simple.setProperty("user", "riffle");
        simple.setProperty("preferQueryMode", "simple");
        try (Connection sql = DriverManager.getConnection(server.jdbcUrl(), simple);
                Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id BIGINT, name STRING, price DECIMAL(10, 2), ok BOOLEAN,"
                    + " day DATE, at TIMESTAMP(6), score FLOAT, PRIMARY KEY (id) NOT ENFORCED)");
            statement.execute("SET search_path TO " + db);
            sql.setAutoCommit(false);
            statement.executeUpdate("INSERT INTO t VALUES (-7, 'O''Brien ü \\n', 12.5, TRUE, '2024-02-29',"
                    + " '2024-06-01 12:00:00.123456', -1.5e3)");
            statement.executeUpdate("insert into T (ID, name) values (8, NULL), (9, '')");
            // not one the session writes itself (an expression): the engine writes it, after the rows before it
            statement.executeUpdate("INSERT INTO t (id, name) VALUES (10, 'a' || 'b')");
            sql.commit();
            // a value is stored the same whether the INSERT is literals or an expression: CHAR(n), and a
            // boolean or a number into a string column (the engine's casts)
            statement.execute("CREATE TABLE " + db + ".fixed (id INT, c CHAR(5), b STRING, n STRING)");
            statement.executeUpdate("INSERT INTO " + db + ".fixed VALUES (1, 'ab', TRUE, 42)");
            statement.executeUpdate("INSERT INTO " + db + ".fixed VALUES (2, 'a' || 'b', NOT FALSE, 41 + 1)");
            sql.commit();
            List<List<String>> fixed = rows(statement, "SELECT id, c, b, n FROM " + db + ".fixed");
            fixed.sort(java.util.Comparator.comparing(row -> row.get(0)));
            assertThat(fixed).hasSize(2);
            assertThat(fixed.get(0).subList(1, 4)).isEqualTo(fixed.get(1).subList(1, 4));
            // a bare read, which keeps the timestamp's microseconds (Calcite's rows hold milliseconds)
            List<List<String>> read = rows(statement, "SELECT id, name, price, ok, day, at, score FROM t");
            read.sort(java.util.Comparator.comparing(row -> Long.parseLong(row.get(0))));
            assertThat(read).containsExactly(
                    List.of("-7", "O'Brien ü \\n", "12.50", "t", "2024-02-29", "2024-06-01T12:00:00.123456", "-1500"),
                    java.util.Arrays.asList("8", null, null, null, null, "null", null),
                    java.util.Arrays.asList("9", "", null, null, null, "null", null),
                    java.util.Arrays.asList("10", "ab", null, null, null, "null", null));
        }
    }

    @Test
    void aBadRowFailsItsStatementAndOnlyTheRowsBeforeItAreWritten(PgWireServer server, TestNames names)
            throws Exception {
        this.server = server;
        String db = names.database("bad");
        try (Connection sql = PgJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id INT NOT NULL, n INT)");
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db + ".t VALUES (?, ?)")) {
                for (int i = 0; i < 10; i++) {
                    if (i == 5) {
                        insert.setNull(1, java.sql.Types.INTEGER);
                    } else {
                        insert.setInt(1, i);
                    }
                    insert.setInt(2, i);
                    insert.addBatch();
                }
                // pgjdbc counts every row of a failed batch as failed (PostgreSQL rolls it back);
                // the error says which were written
                assertThatThrownBy(insert::executeBatch).isInstanceOf(BatchUpdateException.class)
                        .hasMessageContaining("id")
                        .hasMessageContaining("the 5 rows the INSERTs before it in this batch sent were written");
            }
            assertThat(rows(statement, "SELECT count(*), max(id) FROM " + db + ".t")).containsExactly(List.of("5", "4"));

            // a value the session does not take as it is: the engine's error, and nothing of the statement written
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + db + ".t VALUES (20, 'x'), (21, 1)"))
                    .isInstanceOf(SQLException.class);
            assertThat(rows(statement, "SELECT count(*) FROM " + db + ".t")).containsExactly(List.of("5"));

            // in a transaction: the failed statement fails the block; the rows before it are written
            sql.setAutoCommit(false);
            statement.executeUpdate("INSERT INTO " + db + ".t VALUES (30, 30)");
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + db + ".t VALUES (NULL, 31)"))
                    .isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + db + ".t VALUES (32, 32)"))
                    .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getSQLState())
                    .isEqualTo("25P02");
            sql.rollback();
            sql.setAutoCommit(true);
            assertThat(rows(statement, "SELECT id FROM " + db + ".t WHERE id >= 30")).containsExactly(List.of("30"));
        }
    }

    private static List<List<String>> rows(Statement statement, String query) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (ResultSet rs = statement.executeQuery(query)) {
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
                    // pgjdbc's getString of a timestamp prints milliseconds; its value has every digit
                    row.add(rs.getMetaData().getColumnType(c) == java.sql.Types.TIMESTAMP
                            ? String.valueOf(rs.getObject(c, java.time.LocalDateTime.class)) : rs.getString(c));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
