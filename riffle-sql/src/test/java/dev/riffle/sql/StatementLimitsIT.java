package dev.riffle.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.sql.statement.StatementLimits;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Statements over the connection's limits (text length, IN-list size) are refused before Calcite plans them. */
@ExtendWith(LocalClusterExtension.class)
class StatementLimitsIT {

    @Test
    void aStatementOverTheLengthLimitIsRefusedNamingTheLimit(LocalCluster cluster) throws Exception {
        String url = "jdbc:riffle://" + cluster.bootstrapServers();
        // 300,000 chained additions: Calcite's parser would take minutes; the default limit refuses it at once.
        String huge = "SELECT " + "1 + ".repeat(300_000) + "1";
        try (Connection sql = DriverManager.getConnection(url); Statement statement = sql.createStatement()) {
            long started = System.nanoTime();
            assertThatThrownBy(() -> statement.executeQuery(huge)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("1200008 characters long")
                    .hasMessageContaining("at most 65536 (the driver property maxSqlLength)");
            assertThat((System.nanoTime() - started) / 1_000_000).as("ms to refuse").isLessThan(1_000);
            // Avatica wraps what the driver says in "Error while preparing statement [...]".
            assertThatThrownBy(() -> sql.prepareStatement(huge)).isInstanceOf(SQLException.class)
                    .hasRootCauseInstanceOf(StatementLimits.StatementTooLargeException.class)
                    .rootCause().hasMessageContaining("at most 65536 (the driver property maxSqlLength)");
        }
        try (Connection sql = DriverManager.getConnection(url + ";maxSqlLength=20");
                Statement statement = sql.createStatement()) {
            try (ResultSet rows = statement.executeQuery("SELECT 1 + 1")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(2);
            }
            assertThatThrownBy(() -> statement.executeQuery("SELECT 1 + 1 + 1 + 1 + 1")).rootCause()
                    .hasMessageContaining("24 characters long").hasMessageContaining("at most 20");
        }
        // IN lists: Calcite's generated code outgrows a Java method at about 5,000 values; a longer list
        // is refused naming the limit, before it is planned.
        try (Connection sql = DriverManager.getConnection(url); Statement statement = sql.createStatement()) {
            String values = java.util.stream.IntStream.range(0, 4_097).mapToObj(Integer::toString)
                    .collect(java.util.stream.Collectors.joining(", "));
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM (VALUES (1), (2)) AS t(x) WHERE x IN ("
                    + values + ")")).rootCause().isInstanceOf(StatementLimits.StatementTooLargeException.class)
                    .hasMessageContaining("An IN list of 4097 values; Riffle takes at most 4096 per list");
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM (VALUES (1), (2)) AS t(x) WHERE x NOT IN ("
                    + values + ")")).rootCause().hasMessageContaining("An IN list of 4097 values");
            String allowed = values.substring(0, values.lastIndexOf(','));
            try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM (VALUES (1), (2), (-5)) AS t(x) "
                    + "WHERE x IN (" + allowed + ")")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).isEqualTo(2); // 4,096 values are answered
            }
        }
        try (Connection sql = DriverManager.getConnection(url + ";maxInListSize=3");
                Statement statement = sql.createStatement()) {
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM (VALUES (1)) AS t(x) WHERE x IN (1, 2, 3, 4)"))
                    .rootCause().hasMessageContaining("An IN list of 4 values; Riffle takes at most 3");
        }
        assertThatThrownBy(() -> DriverManager.getConnection(url + ";maxSqlLength=lots"))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("maxSqlLength takes a whole number, got 'lots'");
    }
}
