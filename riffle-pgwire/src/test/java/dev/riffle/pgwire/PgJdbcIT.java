package dev.riffle.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;
import org.postgresql.util.PSQLException;

/**
 * pgjdbc 42.7 (what JDBC tools use with PostgreSQL) against Riffle's PostgreSQL protocol server:
 * connecting, DDL, INSERT, queries with pushdown and with parameters (past the prepare threshold,
 * so server-side statements and binary results), every type, cursor-style streaming with
 * PortalSuspended, errors with their SQLSTATEs, and cancellation.
 */
@ExtendWith({LocalClusterExtension.class, PgServerExtension.class})
class PgJdbcIT {
    private PgWireServer server;

    @AfterEach
    void noArrowMemoryHeld() {
        if (server != null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);
        }
    }

    static Connection connect(PgWireServer server) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", "riffle");
        return DriverManager.getConnection(server.jdbcUrl(), properties);
    }

    @Test
    void connectsAndAnswersWhatDriversAskOnConnect(PgWireServer server) throws Exception {
        this.server = server;
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            assertThat(sql.getMetaData().getDatabaseProductVersion()).isEqualTo("14.0");
            assertThat(single(statement, "SELECT version()")).startsWith("PostgreSQL 14.0").contains("Riffle");
            assertThat(single(statement, "SELECT current_database()")).isEqualTo("riffle");
            assertThat(single(statement, "SHOW TRANSACTION ISOLATION LEVEL")).isEqualTo("read committed");
            assertThat(sql.getSchema()).isEqualTo("fluss"); // search_path "$user", public: public is Fluss's default database
            statement.execute("SET application_name = 'pg-it'");
            assertThat(single(statement, "SHOW application_name")).isEqualTo("pg-it");
            assertThat(sql.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
            assertThat(sql.unwrap(PGConnection.class).getBackendPID()).isPositive();
            sql.setAutoCommit(false);
            assertThat(single(statement, "SELECT current_database()")).isEqualTo("riffle");
            sql.commit();
            sql.setAutoCommit(true);
        }
    }

    @Test
    void ddlInsertAndQueriesWithPushdownAndParameters(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("dml");
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            assertThat(statement.executeUpdate("CREATE DATABASE " + db)).isZero();
            statement.execute("CREATE TABLE " + db + ".users (id INT, name STRING, age INT,"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')");
            statement.execute("CREATE TABLE " + db + ".events (seq BIGINT, kind STRING)");
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".users VALUES (1, 'ann', 31), (2, 'bob', 42),"
                    + " (3, 'cy', 27)")).isEqualTo(3);
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".events VALUES (1, 'open'), (2, 'close')"))
                    .isEqualTo(2);

            String lookup = "SELECT name, age FROM " + db + ".users WHERE id = 2";
            assertThat(rows(statement.executeQuery("EXPLAIN PLAN FOR " + lookup)).toString()).contains("PointLookup");
            assertThat(rows(statement.executeQuery(lookup))).containsExactly("bob|42");
            assertThat(rows(statement.executeQuery("SELECT kind FROM " + db + ".events ORDER BY seq")))
                    .containsExactly("open", "close");

            // Past pgjdbc's prepareThreshold (5) the statement is a named server-side one, with binary results.
            try (PreparedStatement byId = sql.prepareStatement("SELECT id, name, age FROM " + db
                    + ".users WHERE id = ?")) {
                for (int run = 0; run < 8; run++) {
                    int id = run % 3 + 1;
                    byId.setInt(1, id);
                    try (ResultSet rs = byId.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getInt("id")).isEqualTo(id);
                        assertThat(rs.getString("name")).isEqualTo(List.of("ann", "bob", "cy").get(id - 1));
                        assertThat(rs.getInt("age")).isEqualTo(List.of(31, 42, 27).get(id - 1));
                        assertThat(rs.next()).isFalse();
                    }
                }
                assertThat(byId.unwrap(org.postgresql.PGStatement.class).isUseServerPrepare()).isTrue();
            }
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db + ".events VALUES (?, ?)")) {
                for (int i = 10; i < 17; i++) {
                    insert.setLong(1, i);
                    insert.setString(2, "k" + i);
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                }
            }
            try (PreparedStatement range = sql.prepareStatement("SELECT count(*) FROM " + db
                    + ".events WHERE seq >= ? AND kind <> ?")) {
                range.setLong(1, 10);
                range.setString(2, "k12");
                assertThat(rows(range.executeQuery())).containsExactly("6");
            }
            assertThat(statement.executeUpdate("UPDATE " + db + ".users SET age = 43 WHERE id = 2")).isEqualTo(1);
            assertThat(statement.executeUpdate("DELETE FROM " + db + ".users WHERE id = 3")).isEqualTo(1);
            assertThat(rows(statement.executeQuery("SELECT id, age FROM " + db + ".users ORDER BY id")))
                    .containsExactly("1|31", "2|43");
        }
    }

    /** Every type, read as text (a plain statement) and binary (a prepared one past the threshold). */
    @Test
    void everyTypeReadsBackAsItsJavaValue(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("types");
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".all_types (b BOOLEAN, ti TINYINT, si SMALLINT, i INT,"
                    + " bi BIGINT, f FLOAT, d DOUBLE, dec DECIMAL(10, 2), s STRING, c CHAR(3), bin BYTES,"
                    + " dt DATE, tm TIME, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6), arr ARRAY<INT>, m MAP<STRING, INT>)");
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".all_types VALUES"
                    + " (TRUE, 1, 2, 3, 4, 1.5, 2.25, -12.34, 'text', 'abc', x'0102ff', DATE '2024-06-01',"
                    + " TIME '12:34:56', TIMESTAMP '2024-06-01 12:00:00.123', TIMESTAMP '2024-06-01 12:00:05',"
                    + " ARRAY[1, 2, 3], MAP['k', 7]),"
                    + " (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                    + " NULL, NULL)")).isEqualTo(2);
            String query = "SELECT b, ti, si, i, bi, f, d, \"dec\", s, c, bin, dt, tm, ts, ltz, arr, m FROM " + db
                    + ".all_types ORDER BY i NULLS LAST";
            try (ResultSet rs = statement.executeQuery(query)) {
                assertEveryType(rs);
            }
            try (PreparedStatement prepared = sql.prepareStatement(query)) {
                for (int run = 0; run < 7; run++) {
                    try (ResultSet rs = prepared.executeQuery()) {
                        assertEveryType(rs);
                    }
                }
            }
        }
    }

    private static void assertEveryType(ResultSet rs) throws SQLException {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getBoolean("b")).isTrue();
        assertThat(rs.getObject("ti")).isEqualTo(1);
        assertThat(rs.getShort("si")).isEqualTo((short) 2);
        assertThat(rs.getObject("i")).isEqualTo(3);
        assertThat(rs.getObject("bi")).isEqualTo(4L);
        assertThat(rs.getObject("f")).isEqualTo(1.5f);
        assertThat(rs.getObject("d")).isEqualTo(2.25d);
        assertThat(rs.getBigDecimal("dec")).isEqualTo(new BigDecimal("-12.34"));
        assertThat(rs.getString("s")).isEqualTo("text");
        assertThat(rs.getString("c")).isEqualTo("abc");
        assertThat(rs.getBytes("bin")).containsExactly(1, 2, 0xff);
        assertThat(rs.getObject("dt", LocalDate.class)).isEqualTo(LocalDate.of(2024, 6, 1));
        assertThat(rs.getObject("tm", LocalTime.class)).isEqualTo(LocalTime.of(12, 34, 56));
        assertThat(rs.getObject("ts", LocalDateTime.class)).isEqualTo(LocalDateTime.of(2024, 6, 1, 12, 0, 0, 123_000_000));
        assertThat(rs.getObject("ltz", OffsetDateTime.class).toInstant())
                .isEqualTo(OffsetDateTime.of(2024, 6, 1, 12, 0, 5, 0, ZoneOffset.UTC).toInstant());
        assertThat(rs.getArray("arr").getArray()).isEqualTo(new Integer[] {1, 2, 3});
        assertThat(rs.getString("m")).isEqualTo("{\"k\":7}");
        assertThat(rs.getMetaData().getColumnType(rs.findColumn("m"))).isEqualTo(java.sql.Types.OTHER);
        assertThat(rs.next()).isTrue();
        for (int c = 1; c <= rs.getMetaData().getColumnCount(); c++) {
            assertThat(rs.getObject(c)).as("column %d of the NULL row", c).isNull();
        }
        assertThat(rs.next()).isFalse();
    }

    /**
     * {@code addBatch}/{@code executeBatch} inserts (a count per row), read back in binary: from the
     * first execution with {@code binaryTransfer=true&prepareThreshold=1}, and past the default
     * {@code prepareThreshold} (5) on a plain connection. pgjdbc asks for binary results for the types
     * it decodes in binary (here all but text and boolean, which it always reads as text).
     * Timestamps carry milliseconds: the rows pass through Calcite's row engine (ORDER BY), which
     * holds timestamps as milliseconds (docs/sql.md).
     */
    @Test
    void batchedInsertsReadBackInBinary(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String t = names.database("binary") + ".typed";
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + t.substring(0, t.indexOf('.')));
            statement.execute("CREATE TABLE " + t + " (i INT, bi BIGINT, d DOUBLE, num DECIMAL(18, 4), dt DATE,"
                    + " ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6), bin BYTES, s STRING, b BOOLEAN,"
                    + " PRIMARY KEY (i) NOT ENFORCED)");
        }
        Properties binary = new Properties();
        binary.setProperty("user", "riffle");
        binary.setProperty("binaryTransfer", "true");
        binary.setProperty("prepareThreshold", "1");
        try (Connection sql = DriverManager.getConnection(server.jdbcUrl(), binary)) {
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + t
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int i = 1; i <= 3; i++) {
                    insert.setInt(1, i);
                    insert.setLong(2, Long.MAX_VALUE - i);
                    insert.setDouble(3, i + 0.1);
                    insert.setBigDecimal(4, new BigDecimal("-12345678901234." + i + "678"));
                    insert.setObject(5, LocalDate.of(1999 + i, 12, 31));
                    insert.setObject(6, LocalDateTime.of(2024, 6, i, 12, 0, 0, 123_000_000));
                    insert.setObject(7, OffsetDateTime.of(2024, 6, i, 23, 59, 59, 999_000_000, ZoneOffset.UTC));
                    insert.setBytes(8, new byte[] {0, (byte) i, (byte) 0xff});
                    insert.setString(9, "row " + i + " \u00fc");
                    insert.setBoolean(10, i % 2 == 1);
                    insert.addBatch();
                }
                insert.setInt(1, 4);
                for (int c = 2; c <= 10; c++) {
                    insert.setNull(c, java.sql.Types.NULL);
                }
                insert.addBatch();
                assertThat(insert.executeBatch()).containsExactly(1, 1, 1, 1);
            }
            // The first execution prepares the named statement and learns its result types; from the
            // second on pgjdbc asks for binary results.
            assertThat(formatsPerRun(sql, t, 2)).containsExactly("text", "binary");
        }
        try (Connection sql = connect(server)) {
            // Past the default prepareThreshold (5) pgjdbc switches to a named statement, then to binary.
            assertThat(formatsPerRun(sql, t, 7)).containsExactly("text", "text", "text", "text", "text", "binary",
                    "binary");
        }
    }

    /** Runs the query {@code runs} times, checking every value; returns the result format of each run. */
    private static List<String> formatsPerRun(Connection sql, String table, int runs) throws SQLException {
        List<String> formats = new ArrayList<>();
        try (PreparedStatement select = sql.prepareStatement(typedQuery(table))) {
            for (int run = 1; run <= runs; run++) {
                select.setInt(1, 1);
                try (ResultSet rs = select.executeQuery()) {
                    formats.add(assertTypedRows(rs));
                }
            }
        }
        return formats;
    }

    private static String typedQuery(String table) {
        return "SELECT i, bi, d, num, dt, ts, ltz, bin, s, b FROM " + table + " WHERE i >= ? ORDER BY i";
    }

    /**
     * Checks the rows the query returns and that its first eight columns (the types pgjdbc reads in
     * binary) came in one format: {@code text} or {@code binary}, returned.
     */
    private static String assertTypedRows(ResultSet rs) throws SQLException {
        org.postgresql.PGResultSetMetaData meta = rs.getMetaData().unwrap(org.postgresql.PGResultSetMetaData.class);
        int format = meta.getFormat(1);
        for (int c = 2; c <= 8; c++) {
            assertThat(meta.getFormat(c)).as("format of %s", rs.getMetaData().getColumnName(c)).isEqualTo(format);
        }
        for (int i = 1; i <= 3; i++) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getObject("i")).isEqualTo(i);
            assertThat(rs.getObject("bi")).isEqualTo(Long.MAX_VALUE - i);
            assertThat(rs.getObject("d")).isEqualTo(i + 0.1);
            assertThat(rs.getBigDecimal("num")).isEqualTo(new BigDecimal("-12345678901234." + i + "678"));
            assertThat(rs.getObject("dt", LocalDate.class)).isEqualTo(LocalDate.of(1999 + i, 12, 31));
            assertThat(rs.getObject("ts", LocalDateTime.class))
                    .isEqualTo(LocalDateTime.of(2024, 6, i, 12, 0, 0, 123_000_000));
            assertThat(rs.getObject("ltz", OffsetDateTime.class).toInstant())
                    .isEqualTo(OffsetDateTime.of(2024, 6, i, 23, 59, 59, 999_000_000, ZoneOffset.UTC).toInstant());
            assertThat(rs.getBytes("bin")).containsExactly(0, i, 0xff);
            assertThat(rs.getString("s")).isEqualTo("row " + i + " \u00fc");
            assertThat(rs.getBoolean("b")).isEqualTo(i % 2 == 1);
        }
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt("i")).isEqualTo(4);
        for (int c = 2; c <= 10; c++) {
            assertThat(rs.getObject(c)).as("column %d of the NULL row", c).isNull();
        }
        assertThat(rs.next()).isFalse();
        return format == 1 ? "binary" : "text";
    }

    @Test
    void fetchSizeStreamsAMillionRowsInBoundedMemory(PgWireServer server, org.apache.fluss.client.Connection fluss,
            TestNames names) throws Exception {
        this.server = server;
        int rows = 1_000_000;
        // About 110 MB as Arrow (a 100-character pad per row): a server that held the result, or read
        // ahead of the client, would hold far more than the bound below.
        String pad = "x".repeat(100);
        TablePath path = bigTable(server, fluss, names, "stream", rows, pad);
        long bound = 32L << 20;
        try (Connection sql = connect(server)) {
            sql.setAutoCommit(false); // pgjdbc fetches portions only inside a transaction block
            try (Statement statement = sql.createStatement()) {
                statement.setFetchSize(1_000);
                long count = 0;
                long sum = 0;
                long padChars = 0;
                long mostArrowHeld = 0;
                boolean heldMidway = false;
                try (ResultSet rs = statement.executeQuery("SELECT id, pad FROM " + path.getDatabaseName() + "."
                        + path.getTableName())) {
                    while (rs.next()) {
                        count++;
                        sum += rs.getLong(1);
                        padChars += rs.getString(2).length();
                        if (count % 1_000 == 0) {
                            mostArrowHeld = Math.max(mostArrowHeld, server.arrowAllocatedBytes());
                        }
                        if (count == rows / 2) {
                            // The portal is suspended with the read open: the rest is not buffered anywhere yet.
                            heldMidway = server.arrowAllocatedBytes() > 0;
                        }
                    }
                }
                assertThat(count).isEqualTo(rows);
                assertThat(sum).isEqualTo((long) rows * (rows - 1) / 2);
                long padCharsWritten = java.util.stream.LongStream.range(0, rows)
                        .map(i -> ("row " + i).length() + pad.length()).sum();
                assertThat(padChars).as("every row's pad, whole").isEqualTo(padCharsWritten);
                assertThat(heldMidway).as("the server held the open read between fetches").isTrue();
                assertThat(mostArrowHeld).as("Arrow memory the server held while streaming").isLessThan(bound);
            }
            sql.commit();
        }
    }

    @Test
    void errorsCarryPostgresSqlStates(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("errs");
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id INT, name STRING)");
            assertThat(sqlState(() -> statement.executeQuery("SELEKT 1"))).isEqualTo("42601");
            assertThat(sqlState(() -> statement.executeQuery("SELECT * FROM " + db + ".nothing"))).isEqualTo("42P01");
            assertThat(sqlState(() -> statement.executeQuery("SELECT nope FROM " + db + ".t"))).isEqualTo("42703");
            assertThat(sqlState(() -> statement.execute("COPY " + db + ".t TO '/tmp/riffle-copy'"))).isEqualTo("0A000");
            assertThat(sqlState(() -> statement.executeQuery("SELECT txid_current()"))).isEqualTo("0A000");
            // t is a log table: Fluss cannot update its rows; a table the statement cannot run on
            assertThat(sqlState(() -> statement.execute("UPDATE " + db + ".t SET name = 'x' WHERE id = 1")))
                    .isEqualTo("0A000");
            assertThat(sqlState(() -> statement.executeQuery("SELECT id / 0 FROM " + db + ".t UNION ALL SELECT 1 / 0")))
                    .isEqualTo("22012");
            assertThat(sqlState(() -> statement.executeQuery("SELECT 2147483647 + id FROM (VALUES (1)) AS v(id)")))
                    .isEqualTo("22003");
            assertThat(sqlState(() -> statement.executeQuery("SELECT 'x'::int"))).isEqualTo("22P02");
            assertThat(sqlState(() -> statement.executeQuery("SELECT '2024-13-01'::date"))).isEqualTo("22007");
            assertThat(sqlState(() -> statement.executeQuery("SELECT (SELECT id FROM (VALUES (1), (2)) AS v(id))")))
                    .isEqualTo("21000");
            assertThat(sqlState(() -> statement.executeQuery("SELECT no_such_function(1)"))).isEqualTo("42883");
            assertThat(sqlState(() -> statement.executeQuery("SELECT id FROM " + db + ".t GROUP BY name")))
                    .isEqualTo("42803");
            try (PreparedStatement byId = sql.prepareStatement("SELECT name FROM " + db + ".t WHERE id = ?")) {
                byId.setString(1, "not a number");
                SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, byId::executeQuery);
                assertThat(e.getSQLState()).isEqualTo("22P02");
                assertThat(e.getMessage()).contains("not a number").contains("$1");
            }
            // The session goes on after errors.
            assertThat(rows(statement.executeQuery("SELECT count(*) FROM " + db + ".t"))).containsExactly("0");
            // In a transaction block an error fails the block until ROLLBACK, as in PostgreSQL.
            sql.setAutoCommit(false);
            assertThat(sqlState(() -> statement.executeQuery("SELEKT 1"))).isEqualTo("42601");
            assertThat(sqlState(() -> statement.executeQuery("SELECT count(*) FROM " + db + ".t"))).isEqualTo("25P02");
            sql.rollback();
            assertThat(rows(statement.executeQuery("SELECT count(*) FROM " + db + ".t"))).containsExactly("0");
            sql.setAutoCommit(true);
        }
    }

    @Test
    void cancelStopsALongQuery(PgWireServer server, org.apache.fluss.client.Connection fluss, TestNames names)
            throws Exception {
        this.server = server;
        TablePath path = bigTable(server, fluss, names, "cancel", 30_000);
        String t = path.getDatabaseName() + "." + path.getTableName();
        // 3 million rows, streamed steadily: every row of the table with each of 100 in-memory values.
        StringJoiner values = new StringJoiner(", ", "(VALUES ", ") AS v(x)");
        for (int i = 0; i < 100; i++) {
            values.add("(" + i + ")");
        }
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            CompletableFuture<Long> query = CompletableFuture.supplyAsync(() -> {
                try (ResultSet rs = statement.executeQuery("SELECT a.id, v.x FROM " + t + " a, " + values)) {
                    long n = 0;
                    while (rs.next()) {
                        n++;
                    }
                    return n;
                } catch (SQLException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ofMillis(300)).pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                statement.cancel();
                return query.isDone();
            });
            assertThatThrownBy(() -> query.get(1, TimeUnit.SECONDS)).hasCauseInstanceOf(PSQLException.class)
                    .cause().satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014"));
            // The connection serves the next statement.
            assertThat(rows(statement.executeQuery("SELECT count(*) FROM " + t))).containsExactly("30000");
        }
    }

    @Test
    void copyOutOfAQueryStreamsCsvAndText(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("copyout");
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id INT, name STRING, price DECIMAL(10, 2), added DATE,"
                    + " PRIMARY KEY (id) NOT ENFORCED)");
            statement.executeUpdate("INSERT INTO " + db + ".t VALUES (1, 'plain', 1.50, DATE '2024-06-01'),"
                    + " (2, 'with, comma and \"quote\"', NULL, NULL), (3, 'tab\tand\\back', -2.00, DATE '1999-12-31'),"
                    + " (4, '', 0.00, NULL)");
            CopyManager copy = sql.unwrap(PGConnection.class).getCopyAPI();
            StringWriter csv = new StringWriter();
            long rows = copy.copyOut("COPY (SELECT id, name, price, added FROM " + db + ".t ORDER BY id) TO STDOUT"
                    + " WITH (FORMAT csv, HEADER)", csv);
            assertThat(rows).isEqualTo(4);
            assertThat(csv.toString()).isEqualTo("id,name,price,added\n"
                    + "1,plain,1.50,2024-06-01\n"
                    + "2,\"with, comma and \"\"quote\"\"\",,\n"
                    + "3,tab\tand\\back,-2.00,1999-12-31\n"
                    + "4,\"\",0.00,\n");
            StringWriter text = new StringWriter();
            assertThat(copy.copyOut("COPY (SELECT id, name, price FROM " + db + ".t WHERE id >= 2 ORDER BY id)"
                    + " TO STDOUT", text)).isEqualTo(3);
            assertThat(text.toString()).isEqualTo("2\twith, comma and \"quote\"\t\\N\n"
                    + "3\ttab\\tand\\\\back\t-2.00\n"
                    + "4\t\t0.00\n");
            // The session serves the next statement.
            assertThat(rows(statement.executeQuery("SELECT count(*) FROM " + db + ".t"))).containsExactly("4");
        }
    }

    @Test
    void copyInWritesTenThousandRowsIntoAPrimaryKeyTable(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("copyin");
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".users (id BIGINT, name STRING, score DOUBLE, joined TIMESTAMP(6),"
                    + " tags ARRAY<STRING>, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')");
            StringBuilder csv = new StringBuilder("id,name,score,joined,tags\n");
            for (int i = 0; i < 10_000; i++) {
                csv.append(i).append(",user ").append(i).append(',').append(i / 4.0).append(",2024-06-01 12:00:")
                        .append(String.format("%02d", i % 60)).append(".5,\"{a,\"\"b c\"\"}\"\n");
            }
            // Row 7 again, later in the data: an upsert keeps the last one.
            csv.append("7,seven,,,\n");
            CopyManager copy = sql.unwrap(PGConnection.class).getCopyAPI();
            long written = copy.copyIn("COPY " + db + ".users FROM STDIN WITH (FORMAT csv, HEADER true)",
                    new StringReader(csv.toString()));
            assertThat(written).isEqualTo(10_001);
            assertThat(rows(statement.executeQuery("SELECT count(*), sum(id) FROM " + db + ".users")))
                    .containsExactly("10000|49995000");
            assertThat(rows(statement.executeQuery("SELECT name, score, joined, tags FROM " + db
                    + ".users WHERE id = 9999"))).containsExactly("user 9999|2499.75|2024-06-01 12:00:39.5|{a,\"b c\"}");
            assertThat(rows(statement.executeQuery("SELECT name, score FROM " + db + ".users WHERE id = 7")))
                    .containsExactly("seven|null");
        }
    }

    @Test
    void aMalformedCopyRowFailsTheCopyAndWritesNothing(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("copybad");
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id INT, amount INT, note STRING)");
            CopyManager copy = sql.unwrap(PGConnection.class).getCopyAPI();
            String data = "1\t10\tfine\n2\t20\tfine\n3\tthirty\tbad\n4\t40\tfine\n";
            SQLException bad = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> copy.copyIn("COPY " + db + ".t FROM STDIN", new StringReader(data)));
            assertThat(bad.getSQLState()).isEqualTo("22P02");
            assertThat(bad.getMessage()).contains("invalid input syntax for type integer: \"thirty\"")
                    .contains("line 3").contains("column amount");
            SQLException extra = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> copy.copyIn("COPY " + db + ".t (id, amount) FROM STDIN", new StringReader("1\t2\t3\n")));
            assertThat(extra.getSQLState()).isEqualTo("22P04");
            // The client abandons a copy (CopyFail): the server answers one error and writes nothing.
            CopyIn abandoned = copy.copyIn("COPY " + db + ".t FROM STDIN");
            byte[] row = "5\t50\tabandoned\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            abandoned.writeToCopy(row, 0, row.length);
            abandoned.cancelCopy();
            assertThat(rows(statement.executeQuery("SELECT count(*) FROM " + db + ".t"))).containsExactly("0");
        }
    }

    @Test
    void aCopyOverTheRowOrByteLimitFailsWith54000(PgWireServer server, org.apache.fluss.client.Connection fluss,
            TestNames names) throws Exception {
        this.server = server;
        String db = names.database("copylimit");
        dev.riffle.server.session.ServerLimits oneMebibyte = dev.riffle.server.session.ServerLimits.DEFAULT.withMaxBodyBytes(1024 * 1024);
        try (PgWireServer limited = PgWireServer.builder().connection(fluss).host("127.0.0.1").port(0).maxCopyRows(100)
                .limits(oneMebibyte).start();
                Connection sql = connect(limited); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id INT)");
            CopyManager copy = sql.unwrap(PGConnection.class).getCopyAPI();
            StringBuilder data = new StringBuilder();
            for (int i = 0; i < 101; i++) {
                data.append(i).append('\n');
            }
            SQLException over = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> copy.copyIn("COPY " + db + ".t FROM STDIN", new StringReader(data.toString())));
            assertThat(over.getSQLState()).isEqualTo("54000");
            assertThat(over.getMessage()).contains("at most 100 rows");
            // 2 MiB in 50 rows, over the server's 1 MiB maxBodyBytes.
            String wide = ("1\t" + "x".repeat(42_000) + "\n").repeat(50);
            statement.execute("CREATE TABLE " + db + ".wide (id INT, pad STRING)");
            SQLException tooLarge = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> copy.copyIn("COPY " + db + ".wide FROM STDIN", new StringReader(wide)));
            assertThat(tooLarge.getSQLState()).isEqualTo("54000");
            assertThat(tooLarge.getMessage()).contains("at most 1048576 bytes");
            assertThat(rows(statement.executeQuery("SELECT count(*) FROM " + db + ".wide"))).containsExactly("0");
            assertThat(copy.copyIn("COPY " + db + ".t FROM STDIN", new StringReader("1\n2\n"))).isEqualTo(2);
            assertThat(rows(statement.executeQuery("SELECT count(*) FROM " + db + ".t"))).containsExactly("2");
        }
    }

    @Test
    void databaseMetaDataListsTablesColumnsAndPrimaryKeys(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("meta");
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".items (id INT, sku STRING, price DECIMAL(10, 2), tags ARRAY<STRING>,"
                    + " PRIMARY KEY (id, sku) NOT ENFORCED)");
            statement.execute("CREATE TABLE " + db + ".events (seq BIGINT, at_ms TIMESTAMP_LTZ(3))");
            statement.execute("CREATE TABLE " + db + ".daily (dt STRING, v DOUBLE) PARTITIONED BY (dt)"
                    + " WITH ('table.auto-partition.enabled' = 'false')");
            java.sql.DatabaseMetaData meta = sql.getMetaData();

            List<String> tables = new ArrayList<>();
            try (ResultSet rs = meta.getTables(null, db, "%", new String[] {"TABLE", "PARTITIONED TABLE"})) {
                while (rs.next()) {
                    tables.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME") + ":"
                            + rs.getString("TABLE_TYPE"));
                }
            }
            assertThat(tables).containsExactly(db + ".daily:PARTITIONED TABLE", db + ".events:TABLE",
                    db + ".items:TABLE");
            try (ResultSet rs = meta.getTables(null, db, "it%", new String[] {"TABLE"})) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("TABLE_NAME")).isEqualTo("items");
                assertThat(rs.next()).isFalse();
            }

            List<String> columns = new ArrayList<>();
            try (ResultSet rs = meta.getColumns(null, db, "items", "%")) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME") + " "
                            + rs.getInt("DATA_TYPE") + " " + rs.getInt("COLUMN_SIZE") + "," + rs.getInt("DECIMAL_DIGITS")
                            + " " + rs.getString("IS_NULLABLE") + " " + rs.getInt("ORDINAL_POSITION"));
                }
            }
            assertThat(columns).containsExactly(
                    "id int4 " + java.sql.Types.INTEGER + " 10,0 NO 1",
                    "sku text " + java.sql.Types.VARCHAR + " " + Integer.MAX_VALUE + ",0 NO 2",
                    "price numeric " + java.sql.Types.NUMERIC + " 10,2 YES 3",
                    "tags _text " + java.sql.Types.ARRAY + " " + Integer.MAX_VALUE + ",0 YES 4");
            try (ResultSet rs = meta.getColumns(null, db, "events", "at%")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString("TYPE_NAME")).isEqualTo("timestamptz");
                assertThat(rs.getInt("DATA_TYPE")).isEqualTo(java.sql.Types.TIMESTAMP); // pgjdbc reports timestamptz as TIMESTAMP
                assertThat(rs.next()).isFalse();
            }

            List<String> keys = new ArrayList<>();
            try (ResultSet rs = meta.getPrimaryKeys(null, db, "items")) {
                while (rs.next()) {
                    keys.add(rs.getString("COLUMN_NAME") + " " + rs.getInt("KEY_SEQ") + " " + rs.getString("PK_NAME"));
                }
            }
            assertThat(keys).containsExactly("id 1 items_pkey", "sku 2 items_pkey");
            try (ResultSet rs = meta.getPrimaryKeys(null, db, "events")) {
                assertThat(rs.next()).isFalse();
            }
        }
    }

    /**
     * Every DatabaseMetaData call DBeaver's navigator makes, through pgjdbc's own catalog queries
     * (pgjdbc 42.7), answered from the live Fluss catalog.
     */
    @Test
    void databaseMetaDataAnswersWhatANavigatorAsks(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("nav");
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".orders (id BIGINT, region TEXT, amount NUMERIC(10, 2),"
                    + " PRIMARY KEY (id, region))");
            statement.execute("CREATE TABLE " + db + ".clicks (at TIMESTAMP WITH TIME ZONE, url TEXT)");
            java.sql.DatabaseMetaData meta = sql.getMetaData();

            assertThat(column(meta.getCatalogs(), "TABLE_CAT")).containsExactly("riffle");
            assertThat(column(meta.getSchemas(), "TABLE_SCHEM")).contains(db, "fluss", "information_schema",
                    "pg_catalog");
            assertThat(column(meta.getSchemas(null, db), "TABLE_SCHEM")).containsExactly(db);
            // without types: the primary key's index too, as PostgreSQL lists it
            List<String> all = new ArrayList<>();
            try (ResultSet rs = meta.getTables(null, db, "%", null)) {
                while (rs.next()) {
                    all.add(rs.getString("TABLE_NAME") + ":" + rs.getString("TABLE_TYPE"));
                }
            }
            assertThat(all).containsExactly("orders_pkey:INDEX", "clicks:TABLE", "orders:TABLE");
            assertThat(column(meta.getTables(null, "pg_catalog", "pg_class", null), "TABLE_TYPE"))
                    .containsExactly("SYSTEM TABLE");

            List<String> index = new ArrayList<>();
            try (ResultSet rs = meta.getIndexInfo(null, db, "orders", false, false)) {
                while (rs.next()) {
                    index.add(rs.getString("INDEX_NAME") + " " + rs.getBoolean("NON_UNIQUE") + " "
                            + rs.getInt("ORDINAL_POSITION") + " " + rs.getString("COLUMN_NAME"));
                }
            }
            assertThat(index).containsExactly("orders_pkey false 1 id", "orders_pkey false 2 region");
            // Fluss has no foreign keys: both answer no rows, without error
            assertThat(column(meta.getImportedKeys(null, db, "orders"), "FK_NAME")).isEmpty();
            assertThat(column(meta.getExportedKeys(null, db, "orders"), "FK_NAME")).isEmpty();
            List<String> types = column(meta.getTypeInfo(), "TYPE_NAME");
            assertThat(types).contains("int4", "int8", "text", "numeric", "timestamptz", "bool", "bytea", "float8");
            assertThat(column(meta.getFunctions(null, db, "%"), "FUNCTION_NAME")).isEmpty();

            try (ResultSet rs = statement.executeQuery("SELECT o.id, o.amount, count(*), o.region AS r FROM " + db
                    + ".orders o GROUP BY o.id, o.amount, o.region")) {
                java.sql.ResultSetMetaData columns = rs.getMetaData();
                assertThat(columns.getColumnCount()).isEqualTo(4);
                assertThat(columns.getColumnLabel(3)).isEqualTo("count");
                assertThat(columns.getColumnTypeName(1)).isEqualTo("int8");
                assertThat(columns.getColumnTypeName(2)).isEqualTo("numeric");
                assertThat(columns.getColumnLabel(4)).isEqualTo("r");
                assertThat(columns.getColumnType(3)).isEqualTo(java.sql.Types.BIGINT);
                // numeric(10,2)'s type modifier travels in the RowDescription
                assertThat(columns.getPrecision(2)).isEqualTo(10);
                assertThat(columns.getScale(2)).isEqualTo(2);
                // a table's columns say which table and column they are (pgjdbc looks the RowDescription's
                // table OID and attribute number up in pg_class and pg_attribute); count(*) is no table's
                org.postgresql.PGResultSetMetaData origins = columns.unwrap(org.postgresql.PGResultSetMetaData.class);
                assertThat(columns.getTableName(1)).isEqualTo("orders");
                assertThat(origins.getBaseSchemaName(1)).isEqualTo(db);
                assertThat(origins.getBaseColumnName(4)).isEqualTo("region");
                assertThat(origins.getBaseTableName(4)).isEqualTo("orders");
                assertThat(columns.getTableName(3)).isEmpty();
                assertThat(origins.getBaseColumnName(3)).isEmpty();
                assertThat(columns.isAutoIncrement(1)).isFalse();
                assertThat(columns.isNullable(1)).isEqualTo(java.sql.ResultSetMetaData.columnNoNulls); // a key column
            }
        }
    }

    private static List<String> column(ResultSet rows, String name) throws java.sql.SQLException {
        List<String> values = new ArrayList<>();
        try (rows) {
            while (rows.next()) {
                values.add(rows.getString(name));
            }
        }
        return values;
    }

    /** A log table of {@code rows} ids 0..rows-1, created over the PostgreSQL protocol and filled with the Fluss writer. */
    static TablePath bigTable(PgWireServer server, org.apache.fluss.client.Connection fluss, TestNames names,
            String base, int rows) throws Exception {
        return bigTable(server, fluss, names, base, rows, "");
    }

    /** A log table {@code big (id BIGINT, pad STRING)} of {@code rows} rows, {@code pad} being {@code "row <id>"} plus {@code suffix}. */
    static TablePath bigTable(PgWireServer server, org.apache.fluss.client.Connection fluss, TestNames names,
            String base, int rows, String suffix) throws Exception {
        String db = names.database(base);
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".big (id BIGINT, pad STRING) WITH ('bucket.num' = '2')");
        }
        TablePath path = TablePath.of(db, "big");
        try (Table table = fluss.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (long i = 0; i < rows; i++) {
                writer.append(GenericRow.of(i, org.apache.fluss.row.BinaryString.fromString("row " + i + suffix)));
            }
            writer.flush();
        }
        return path;
    }

    interface SqlCall {
        void run() throws SQLException;
    }

    static String sqlState(SqlCall call) {
        try {
            call.run();
        } catch (SQLException e) {
            return e.getSQLState();
        }
        throw new AssertionError("The statement did not fail");
    }

    static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet rs = statement.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            String value = rs.getString(1);
            assertThat(rs.next()).isFalse();
            return value;
        }
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
