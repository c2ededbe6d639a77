package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.explain;
import static dev.riffle.sql.SqlFixtures.query;
import static dev.riffle.sql.SqlFixtures.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.TextValueSink;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.sql.engine.StatementShape;
import dev.riffle.sql.statement.DirectRead;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Timestamps keep every fractional digit their column holds through SQL: written with literals or
 * {@code ?} parameters, found by key, filtered; read back at full precision through the read a
 * statement is (what {@code POST /v1/sql} and Flight SQL answer with).
 */
@ExtendWith(LocalClusterExtension.class)
class TimestampPrecisionIT {
    private static final String MICROS = "2024-06-01 12:00:00.123456";

    @Test
    void literalInsertKeepsEveryDigitTheColumnHolds(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("tslit");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id INT, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6),"
                    + " ts9 TIMESTAMP(9), ts3 TIMESTAMP(3)) WITH ('bucket.num' = '1')");
            statement.execute("CREATE TABLE " + db + ".users (id INT, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6),"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')");
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".events VALUES (1, TIMESTAMP '" + MICROS + "',"
                    + " TIMESTAMP WITH LOCAL TIME ZONE '" + MICROS + "', TIMESTAMP '2024-06-01 12:00:00.123456789',"
                    + " TIMESTAMP '2024-06-01 12:00:00.123')")).isEqualTo(1);
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".users VALUES (1, TIMESTAMP '" + MICROS + "',"
                    + " TIMESTAMP WITH LOCAL TIME ZONE '" + MICROS + "')")).isEqualTo(1);

            assertThat(read(sql, "SELECT id, ts, ltz, ts9, ts3 FROM " + db + ".events")).containsExactly(
                    "1|2024-06-01T12:00:00.123456|2024-06-01T12:00:00.123456Z|2024-06-01T12:00:00.123456789"
                            + "|2024-06-01T12:00:00.123");
            // what a Flight SQL client is told it will get is what the read sends
            try (PreparedStatement select = sql.prepareStatement("SELECT ts, ltz, ts9 FROM " + db + ".events")) {
                assertThat(StatementShape.of(select).rows().getFields().stream().map(f -> f.getType().toString()))
                        .containsExactly("Timestamp(MICROSECOND, null)", "Timestamp(MICROSECOND, UTC)",
                                "Timestamp(NANOSECOND, null)");
            }
            assertThat(read(sql, "SELECT id, ts, ltz FROM " + db + ".users")).containsExactly(
                    "1|2024-06-01T12:00:00.123456|2024-06-01T12:00:00.123456Z");
            // a key lookup returns the row as stored, too
            assertThat(read(sql, "SELECT ts, ltz FROM " + db + ".users WHERE id = 1")).containsExactly(
                    "2024-06-01T12:00:00.123456|2024-06-01T12:00:00.123456Z");
        }
    }

    @Test
    void insertSelectOfATablesColumnsKeepsEveryDigit(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("tscopy");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id INT, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6),"
                    + " ts9 TIMESTAMP(9)) WITH ('bucket.num' = '2')");
            statement.execute("CREATE TABLE " + db + ".copy (id INT, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6),"
                    + " ts9 TIMESTAMP(9), PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')");
            statement.executeUpdate("INSERT INTO " + db + ".events VALUES (1, TIMESTAMP '" + MICROS + "',"
                    + " TIMESTAMP WITH LOCAL TIME ZONE '" + MICROS + "', TIMESTAMP '2024-06-01 12:00:00.123456789'),"
                    + " (2, TIMESTAMP '2024-06-01 12:00:00.000001', TIMESTAMP WITH LOCAL TIME ZONE"
                    + " '2024-06-01 12:00:00.000001', NULL)");
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".copy SELECT * FROM " + db + ".events"))
                    .isEqualTo(2);
            assertThat(read(sql, "SELECT id, ts, ltz, ts9 FROM " + db + ".copy")).containsExactlyInAnyOrder(
                    "1|2024-06-01T12:00:00.123456|2024-06-01T12:00:00.123456Z|2024-06-01T12:00:00.123456789",
                    "2|2024-06-01T12:00:00.000001|2024-06-01T12:00:00.000001Z|");
            // a pushed filter and reordered columns: still the read's own rows
            statement.executeUpdate("DELETE FROM " + db + ".copy WHERE id = 1");
            assertThat(statement.executeUpdate("INSERT INTO " + db + ".copy (ts9, ltz, ts, id) SELECT ts9, ltz, ts, id"
                    + " FROM " + db + ".events WHERE ts = TIMESTAMP '" + MICROS + "'")).isEqualTo(1);
            assertThat(read(sql, "SELECT id, ts, ltz, ts9 FROM " + db + ".copy WHERE id = 1")).containsExactly(
                    "1|2024-06-01T12:00:00.123456|2024-06-01T12:00:00.123456Z|2024-06-01T12:00:00.123456789");
        }
    }

    @Test
    void parameterInsertKeepsEveryDigit(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("tsparam");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id INT, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6),"
                    + " ts9 TIMESTAMP(9)) WITH ('bucket.num' = '1')");
            statement.execute("CREATE TABLE " + db + ".users (id INT, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6),"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')");
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db + ".events VALUES (?, ?, ?, ?)")) {
                insert.setInt(1, 1);
                insert.setTimestamp(2, Timestamp.valueOf(MICROS));
                insert.setTimestamp(3, Timestamp.valueOf(MICROS));
                insert.setTimestamp(4, Timestamp.valueOf("2024-06-01 12:00:00.123456789"));
                assertThat(insert.executeUpdate()).isEqualTo(1);
                insert.setInt(1, 2);
                insert.setObject(2, LocalDateTime.parse("2024-06-01T12:00:00.654321"));
                insert.setObject(3, Timestamp.valueOf("2024-06-01 12:00:00.654321"));
                insert.setNull(4, java.sql.Types.TIMESTAMP);
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement upsert = sql.prepareStatement("INSERT INTO " + db + ".users VALUES (?, ?, ?)")) {
                for (int i = 1; i <= 2; i++) {
                    upsert.setInt(1, i);
                    upsert.setTimestamp(2, Timestamp.valueOf("2024-06-01 12:00:00.00000" + i));
                    upsert.setTimestamp(3, Timestamp.valueOf("2024-06-01 12:00:00.00000" + i));
                    upsert.addBatch();
                }
                assertThat(upsert.executeBatch()).containsExactly(1, 1);
            }
            assertThat(read(sql, "SELECT id, ts, ltz, ts9 FROM " + db + ".events")).containsExactlyInAnyOrder(
                    "1|2024-06-01T12:00:00.123456|2024-06-01T12:00:00.123456Z|2024-06-01T12:00:00.123456789",
                    "2|2024-06-01T12:00:00.654321|2024-06-01T12:00:00.654321Z|");
            assertThat(read(sql, "SELECT id, ts, ltz FROM " + db + ".users")).containsExactlyInAnyOrder(
                    "1|2024-06-01T12:00:00.000001|2024-06-01T12:00:00.000001Z",
                    "2|2024-06-01T12:00:00.000002|2024-06-01T12:00:00.000002Z");
        }
    }

    @Test
    void lookupByTimestampKeyComparesEveryDigit(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("tskey");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".by_ts (ts TIMESTAMP(6), v STRING, PRIMARY KEY (ts) NOT ENFORCED)"
                    + " WITH ('bucket.num' = '2')");
            statement.execute("CREATE TABLE " + db + ".by_ts_ltz (ts TIMESTAMP_LTZ(6), v STRING,"
                    + " PRIMARY KEY (ts) NOT ENFORCED) WITH ('bucket.num' = '2')");
            for (String table : List.of("by_ts", "by_ts_ltz")) {
                String literal = table.equals("by_ts") ? "TIMESTAMP" : "TIMESTAMP WITH LOCAL TIME ZONE";
                statement.executeUpdate("INSERT INTO " + db + "." + table + " VALUES (" + literal + " '" + MICROS
                        + "', 'micros'), (" + literal + " '2024-06-01 12:00:00.123', 'millis'), (" + literal
                        + " '2024-06-01 12:00:00.123999', 'late')");
                String where = "SELECT v FROM " + db + "." + table + " WHERE ts = " + literal;
                assertThat(explain(sql, where + " '" + MICROS + "'")).contains("PointLookup");
                assertThat(query(sql, where + " '" + MICROS + "'")).containsExactly("micros");
                assertThat(query(sql, where + " '2024-06-01 12:00:00.123'")).containsExactly("millis");
                assertThat(query(sql, where + " '2024-06-01 12:00:00.1234567'")).isEmpty();
                assertThat(query(sql, "SELECT v FROM " + db + "." + table + " WHERE ts IN (" + literal + " '" + MICROS
                        + "', " + literal + " '2024-06-01 12:00:00.123999') ORDER BY v"))
                        .containsExactly("late", "micros");
                try (PreparedStatement byKey = sql.prepareStatement("SELECT v FROM " + db + "." + table
                        + " WHERE ts = ?")) {
                    byKey.setTimestamp(1, Timestamp.valueOf(MICROS));
                    assertThat(rows(byKey.executeQuery())).containsExactly("micros");
                    byKey.setObject(1, LocalDateTime.parse("2024-06-01T12:00:00.123999"));
                    assertThat(rows(byKey.executeQuery())).containsExactly("late");
                    byKey.setTimestamp(1, Timestamp.valueOf("2024-06-01 12:00:00.123"));
                    assertThat(rows(byKey.executeQuery())).containsExactly("millis");
                }
            }
        }
    }

    @Test
    void conditionsBesideAKeyLookupCompareEveryDigit(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("tsbeside");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".users (id INT, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6),"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')");
            statement.executeUpdate("INSERT INTO " + db + ".users VALUES (1, TIMESTAMP '" + MICROS + "',"
                    + " TIMESTAMP WITH LOCAL TIME ZONE '" + MICROS + "')");
            String byId = "SELECT id FROM " + db + ".users WHERE id = 1 AND ";
            assertThat(explain(sql, byId + "ts = TIMESTAMP '2024-06-01 12:00:00.123'"))
                    .contains("PointLookup[id=1][ts = 2024-06-01 12:00:00.123]");
            assertThat(query(sql, byId + "ts = TIMESTAMP '2024-06-01 12:00:00.123'")).isEmpty();
            assertThat(query(sql, byId + "ts = TIMESTAMP '" + MICROS + "'")).containsExactly("1");
            assertThat(query(sql, byId + "ts > TIMESTAMP '2024-06-01 12:00:00.123'")).containsExactly("1");
            assertThat(query(sql, byId + "ltz = TIMESTAMP WITH LOCAL TIME ZONE '2024-06-01 12:00:00.123'")).isEmpty();
            assertThat(query(sql, byId + "ltz = TIMESTAMP WITH LOCAL TIME ZONE '" + MICROS + "'"))
                    .containsExactly("1");
        }
    }

    @Test
    void filtersCompareEveryDigit(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("tsfilter");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id INT, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6))"
                    + " WITH ('bucket.num' = '2')");
            String[] times = {MICROS, "2024-06-01 12:00:00.123", "2024-06-01 12:00:00.123999"};
            for (int i = 0; i < times.length; i++) {
                statement.executeUpdate("INSERT INTO " + db + ".events VALUES (" + i + ", TIMESTAMP '" + times[i]
                        + "', TIMESTAMP WITH LOCAL TIME ZONE '" + times[i] + "')");
            }
            String events = db + ".events";
            for (String column : List.of("ts", "ltz")) {
                String literal = column.equals("ts") ? "TIMESTAMP" : "TIMESTAMP WITH LOCAL TIME ZONE";
                String select = "SELECT id FROM " + events + " WHERE " + column;
                assertThat(query(sql, select + " = " + literal + " '" + MICROS + "'")).containsExactly("0");
                assertThat(query(sql, select + " = " + literal + " '2024-06-01 12:00:00.123'")).containsExactly("1");
                assertThat(query(sql, select + " > " + literal + " '2024-06-01 12:00:00.123' ORDER BY id"))
                        .containsExactly("0", "2");
                assertThat(query(sql, select + " < " + literal + " '2024-06-01 12:00:00.123999' ORDER BY id"))
                        .containsExactly("0", "1");
                assertThat(query(sql, select + " = " + literal + " '2024-06-01 12:00:00.1234567'")).isEmpty();
                try (PreparedStatement byTime = sql.prepareStatement(select + " = ?")) {
                    byTime.setTimestamp(1, Timestamp.valueOf(MICROS));
                    assertThat(rows(byTime.executeQuery())).containsExactly("0");
                    byTime.setTimestamp(1, Timestamp.valueOf("2024-06-01 12:00:00.123999"));
                    assertThat(rows(byTime.executeQuery())).containsExactly("2");
                }
            }
            assertThat(explain(sql, "SELECT id FROM " + events + " WHERE ts = TIMESTAMP '" + MICROS + "'"))
                    .contains("LogScan[ts = 2024-06-01 12:00:00.123456]");
        }
    }

    @Test
    void moreDigitsThanTheColumnHoldsAreCutToItsPrecision(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("tscut");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id INT, ts TIMESTAMP(6), ts3 TIMESTAMP(3))"
                    + " WITH ('bucket.num' = '1')");
            statement.executeUpdate("INSERT INTO " + db + ".events VALUES (1, TIMESTAMP '2024-06-01 12:00:00.1234567',"
                    + " TIMESTAMP '2024-06-01 12:00:00.9999')");
            try (PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db + ".events VALUES (2, ?, ?)")) {
                insert.setTimestamp(1, Timestamp.valueOf("2024-06-01 12:00:00.1234567"));
                insert.setTimestamp(2, Timestamp.valueOf("2024-06-01 12:00:00.9999"));
                insert.executeUpdate();
            }
            assertThat(read(sql, "SELECT id, ts, ts3 FROM " + db + ".events")).containsExactlyInAnyOrder(
                    "1|2024-06-01T12:00:00.123456|2024-06-01T12:00:00.999",
                    "2|2024-06-01T12:00:00.123456|2024-06-01T12:00:00.999");
        }
    }

    @Test
    void updatesAndDeletesReachTheExactRowAndKeepWhatTheyDoNotSet(LocalCluster cluster, TestNames names)
            throws Exception {
        String db = names.database("tsdml");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".by_ts (ts TIMESTAMP(6), v STRING, seen TIMESTAMP(6),"
                    + " PRIMARY KEY (ts) NOT ENFORCED) WITH ('bucket.num' = '1')");
            statement.executeUpdate("INSERT INTO " + db + ".by_ts VALUES (TIMESTAMP '" + MICROS + "', 'micros', TIMESTAMP '"
                    + MICROS + "'), (TIMESTAMP '2024-06-01 12:00:00.123', 'millis', TIMESTAMP '2024-06-01 12:00:00.123')");
            assertThat(statement.executeUpdate("UPDATE " + db + ".by_ts SET v = 'changed' WHERE ts = TIMESTAMP '" + MICROS
                    + "'")).isEqualTo(1);
            assertThat(read(sql, "SELECT ts, v, seen FROM " + db + ".by_ts")).containsExactlyInAnyOrder(
                    "2024-06-01T12:00:00.123456|changed|2024-06-01T12:00:00.123456",
                    "2024-06-01T12:00:00.123|millis|2024-06-01T12:00:00.123");
            try (PreparedStatement update = sql.prepareStatement("UPDATE " + db + ".by_ts SET seen = ? WHERE ts = ?")) {
                update.setTimestamp(1, Timestamp.valueOf("2024-06-02 00:00:00.000001"));
                update.setTimestamp(2, Timestamp.valueOf("2024-06-01 12:00:00.123"));
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
            assertThat(read(sql, "SELECT ts, v, seen FROM " + db + ".by_ts")).containsExactlyInAnyOrder(
                    "2024-06-01T12:00:00.123456|changed|2024-06-01T12:00:00.123456",
                    "2024-06-01T12:00:00.123|millis|2024-06-02T00:00:00.000001");
            // a key found by a scan is known in milliseconds only: refused, not applied to another row
            assertThatThrownBy(() -> statement.executeUpdate("DELETE FROM " + db + ".by_ts WHERE v = 'changed'"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("needs the exact key")
                    .hasMessageContaining("nothing was written");
            assertThat(statement.executeUpdate("DELETE FROM " + db + ".by_ts WHERE ts = TIMESTAMP '" + MICROS + "'"))
                    .isEqualTo(1);
            assertThat(query(sql, "SELECT v FROM " + db + ".by_ts")).containsExactly("millis");
        }
    }

    /** A statement's rows read as the statement's read (Arrow, at full precision), each as "a|b|c" of the values' text. */
    private static List<String> read(Connection sql, String select) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement statement = sql.prepareStatement(select);
                BufferAllocator allocator = new RootAllocator();
                TableReader reader = DirectRead.of(statement).orElseThrow().open(List.of(), allocator)) {
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    VectorSchemaRoot root = batch.root();
                    List<ArrowValueReader> readers = ArrowValueReader.ofColumns(root.getFieldVectors());
                    TextValueSink text = new TextValueSink();
                    for (int row = 0; row < root.getRowCount(); row++) {
                        StringJoiner line = new StringJoiner("|");
                        for (ArrowValueReader column : readers) {
                            column.read(row, text);
                            line.add(text.take().orElse(""));
                        }
                        rows.add(line.toString());
                    }
                }
            }
        }
        return rows;
    }
}
