package dev.riffle.flight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.StringJoiner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Arrow Flight SQL JDBC driver (what DBeaver and JDBC tools load) against Riffle's Flight SQL
 * server: the metadata calls that draw a database tree, statements and prepared statements with
 * parameters, updates and DDL with their counts, and errors carrying the server's message.
 */
@ExtendWith({LocalClusterExtension.class, FlightServerExtension.class})
class FlightJdbcIT {
    private FlightSqlServer server;

    @AfterEach
    void noArrowMemoryHeld() {
        if (server != null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);
        }
    }

    static Connection connect(FlightSqlServer server) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl(), new Properties());
    }

    @Test
    void databaseMetaDataDrawsTheTree(FlightSqlServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("tree");
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".orders (id BIGINT, region STRING, amount DECIMAL(10, 2),"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')");
            statement.execute("CREATE TABLE " + db + ".events (at TIMESTAMP(3), kind STRING)");
            DatabaseMetaData meta = sql.getMetaData();
            assertThat(column(meta.getCatalogs(), "TABLE_CAT")).isEmpty();
            assertThat(column(meta.getSchemas(), "TABLE_SCHEM")).contains(db, "fluss");
            assertThat(column(meta.getTables(null, db, "%", null), "TABLE_NAME")).containsExactly("events", "orders");
            assertThat(column(meta.getTables(null, db, "ord%", new String[] {"TABLE"}), "TABLE_NAME"))
                    .containsExactly("orders");
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = meta.getColumns(null, db, "orders", "%")) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME") + " "
                            + rs.getString("IS_NULLABLE"));
                }
            }
            assertThat(columns).containsExactly("id BIGINT NO", "region VARCHAR YES", "amount DECIMAL YES");
            assertThat(column(meta.getPrimaryKeys(null, db, "orders"), "COLUMN_NAME")).containsExactly("id");
            assertThat(column(meta.getImportedKeys(null, db, "orders"), "FKCOLUMN_NAME")).isEmpty();
            assertThat(column(meta.getExportedKeys(null, db, "orders"), "FKCOLUMN_NAME")).isEmpty();
            assertThat(column(meta.getTableTypes(), "TABLE_TYPE")).containsExactly("TABLE");
            assertThat(meta.getDatabaseProductName()).isEqualTo("Riffle");
            assertThat(meta.getIdentifierQuoteString()).isEqualTo("\"");
        }
    }

    @Test
    void statementsAndPreparedStatementsWithParameters(FlightSqlServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("stmts");
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            assertThat(statement.executeUpdate("CREATE TABLE " + db + ".accounts (id INT, owner STRING,"
                    + " balance DECIMAL(12, 2), PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')")).isZero();
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".accounts VALUES (1, 'ann', 10.50),"
                    + " (2, 'bob', 20.00), (3, 'cy', NULL)")).isEqualTo(3);
            assertThat(rows(statement.executeQuery("SELECT id, owner, balance FROM " + db + ".accounts ORDER BY id")))
                    .containsExactly("1|ann|10.50", "2|bob|20.00", "3|cy|null");

            try (PreparedStatement lookup = sql.prepareStatement("SELECT owner, balance FROM " + db
                    + ".accounts WHERE id = ?")) {
                ResultSetMetaData described = lookup.getMetaData();
                assertThat(described.getColumnCount()).isEqualTo(2);
                assertThat(described.getColumnName(1)).isEqualTo("owner");
                // Flight SQL's column metadata names the table a column is read from
                assertThat(described.getTableName(1)).isEqualTo("accounts");
                lookup.setInt(1, 2);
                assertThat(rows(lookup.executeQuery())).containsExactly("bob|20.00");
                lookup.setInt(1, 1);
                assertThat(rows(lookup.executeQuery())).containsExactly("ann|10.50");
                lookup.setInt(1, 42);
                assertThat(rows(lookup.executeQuery())).isEmpty();
            }
            try (PreparedStatement update = sql.prepareStatement("UPDATE " + db
                    + ".accounts SET balance = ? WHERE id = ?")) {
                update.setBigDecimal(1, new BigDecimal("99.99"));
                update.setInt(2, 3);
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db
                    + ".accounts VALUES (?, ?, ?)")) {
                insert.setInt(1, 4);
                insert.setString(2, "dee");
                insert.setBigDecimal(3, new BigDecimal("4.00"));
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            assertThat(statement.executeUpdate("DELETE FROM " + db + ".accounts WHERE id = 2")).isEqualTo(1);
            assertThat(rows(statement.executeQuery("SELECT * FROM " + db + ".accounts ORDER BY id")))
                    .containsExactly("1|ann|10.50", "3|cy|99.99", "4|dee|4.00");
            assertThat(rows(statement.executeQuery("SELECT count(*), sum(balance) FROM " + db + ".accounts")))
                    .containsExactly("3|114.49");
        }
    }

    /**
     * A literal INSERT of thousands of rows (what a script or a tool's export sends, up to the
     * server's 64 KiB statement) is written as its rows: the engine plans VALUES rows that need
     * converting as one select per row, which failed from about 2,000 rows ("Code grows beyond
     * 64 KB") or killed the handler thread.
     */
    @Test
    void aLiteralInsertOfThousandsOfRowsIsWritten(FlightSqlServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("values");
        int count = 3_000;
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".amounts (id INT, amount DECIMAL(12, 2))");
            StringJoiner values = new StringJoiner(",");
            BigDecimal total = BigDecimal.ZERO;
            for (int i = 0; i < count; i++) {
                BigDecimal amount = BigDecimal.valueOf(i * 7L + 1, 2);
                total = total.add(amount);
                values.add("(" + i + "," + amount.toPlainString() + ")");
            }
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".amounts VALUES " + values)).isEqualTo(count);
            assertThat(rows(statement.executeQuery("SELECT count(*), sum(amount), min(id), max(id) FROM " + db
                    + ".amounts"))).containsExactly(count + "|" + total + "|0|" + (count - 1));

            // Every kind of literal the direct write takes, in rows the engine would have planned too.
            statement.execute("CREATE TABLE " + db + ".facts (id INT, d DATE, ts TIMESTAMP(3), name STRING,"
                    + " ok BOOLEAN, ratio DOUBLE)");
            StringJoiner facts = new StringJoiner(", ");
            for (int i = 0; i < 500; i++) {
                facts.add("(" + i + ", '2024-01-" + String.format("%02d", i % 28 + 1) + "', '2024-06-01 12:00:0"
                        + i % 10 + ".250', 'n''" + i % 100 + "', " + (i % 2 == 0) + ", " + i + ".5)");
            }
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".facts VALUES " + facts)).isEqualTo(500);
            assertThat(rows(statement.executeQuery("SELECT count(DISTINCT name), sum(CASE WHEN ok THEN 1 ELSE 0 END),"
                    + " sum(ratio) FROM " + db + ".facts"))).containsExactly("100|250|125000.0");
            assertThat(rows(statement.executeQuery("SELECT count(*) FROM " + db + ".facts WHERE d = DATE '2024-01-28'"
                    + " AND name LIKE 'n''%'"))).containsExactly("17");
            assertThat(rows(statement.executeQuery("SELECT count(*) FROM " + db + ".facts"
                    + " WHERE ts = TIMESTAMP '2024-06-01 12:00:09.250'"))).containsExactly("50");

            // What the direct write does not take runs through the engine as before: a value out of
            // its column's range fails naming it, and nothing is written.
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + db + ".facts (id, name) VALUES"
                    + " (3000000000, 'too big')")).isInstanceOf(SQLException.class)
                    .hasMessageContaining("3000000000");
            assertThat(rows(statement.executeQuery("SELECT count(*) FROM " + db + ".facts"))).containsExactly("500");
        }
    }

    @Test
    void errorsCarryTheServersMessage(FlightSqlServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("errs");
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM " + db + ".nothing"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("'nothing' not found");
            assertThatThrownBy(() -> statement.executeQuery("SELEKT 1"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("SELEKT");
            statement.execute("CREATE TABLE " + db + ".t (id INT, small TINYINT)");
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + db + ".t VALUES (1, 300)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("300");
            assertThat(rows(statement.executeQuery("SELECT count(*) FROM " + db + ".t"))).containsExactly("0");
            assertThatThrownBy(() -> statement.execute("CREATE TABLE " + db + ".t (id INT)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("already exists");
        }
    }

    /**
     * Every scalar Fluss type and an array, read through Flight SQL and through {@code jdbc:riffle}
     * (the planner in the caller's JVM): the same values, cell by cell.
     */
    @Test
    void everyTypeReadsAsJdbcRiffleReadsIt(LocalCluster cluster, FlightSqlServer server, TestNames names)
            throws Exception {
        this.server = server;
        String db = names.database("types");
        String columns = "b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, d DOUBLE, dec DECIMAL(10, 2),"
                + " s STRING, c CHAR(3), bin BYTES, dt DATE, tm TIME, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3),"
                + " arr ARRAY<INT>";
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".all_types (" + columns + ")");
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".all_types VALUES"
                    + " (TRUE, 1, 2, 3, 4, 1.5, 2.25, 12.34, 'text', 'abc', x'0102', DATE '2024-06-01',"
                    + " TIME '12:34:56', TIMESTAMP '2024-06-01 12:34:56.789', TIMESTAMP '2024-06-01 12:34:56.789',"
                    + " ARRAY[1, 2, 3]),"
                    + " (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)"))
                    .isEqualTo(2);
            String scalars = "SELECT b, ti, si, i, bi, f, d, \"dec\", s, c FROM " + db + ".all_types ORDER BY i NULLS LAST";
            List<String> overFlight = rows(statement.executeQuery(scalars));
            List<String> inProcess;
            try (Connection riffle = DriverManager.getConnection("jdbc:riffle://" + cluster.bootstrapServers())) {
                inProcess = rows(riffle.createStatement().executeQuery(scalars));
            }
            assertThat(overFlight).isEqualTo(inProcess);
            assertThat(overFlight).containsExactly("true|1|2|3|4|1.5|2.25|12.34|text|abc",
                    String.join("|", java.util.Collections.nCopies(10, "null")));
            try (var rs = statement.executeQuery("SELECT bin, dt, tm, ts, ltz, arr FROM " + db + ".all_types WHERE i = 3")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getBytes("bin")).containsExactly(1, 2);
                assertThat(rs.getDate("dt").toLocalDate()).isEqualTo(java.time.LocalDate.of(2024, 6, 1));
                assertThat(rs.getTime("tm").toLocalTime()).isEqualTo(java.time.LocalTime.of(12, 34, 56));
                assertThat(rs.getTimestamp("ts").toLocalDateTime())
                        .isEqualTo(java.time.LocalDateTime.of(2024, 6, 1, 12, 34, 56, 789_000_000));
                assertThat(rs.getTimestamp("ltz")).isNotNull();
                assertThat(rs.getArray("arr").getArray()).isEqualTo(new Object[] {1, 2, 3});
            }
        }
    }

    static List<String> column(ResultSet rs, String name) throws SQLException {
        List<String> values = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                values.add(rs.getString(name));
            }
        }
        return values;
    }

    /** Each row as "a|b|c", in result order. */
    static List<String> rows(ResultSet rs) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (rs) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringJoiner row = new StringJoiner("|");
                for (int i = 1; i <= columns; i++) {
                    row.add(String.valueOf(rs.getObject(i)));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }
}
