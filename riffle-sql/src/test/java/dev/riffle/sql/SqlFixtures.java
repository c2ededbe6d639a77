package dev.riffle.sql;

import org.apache.fluss.client.FlussConnection;
import dev.riffle.core.rpc.RetryingAdmin;
import dev.riffle.local.LocalCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;

/** Helpers for SQL integration tests: connections, table creation, result rendering. */
final class SqlFixtures {
    private SqlFixtures() {}

    static Connection connect(LocalCluster cluster) throws SQLException {
        return DriverManager.getConnection("jdbc:riffle://" + cluster.bootstrapServers());
    }

    static void createTable(org.apache.fluss.client.Connection fluss, TablePath path, Schema schema, int buckets,
            String... bucketKeys) throws Exception {
        // Through RetryingAdmin: its createTable returns once the buckets have leaders (TableReadiness).
        RetryingAdmin.of((FlussConnection) fluss)
                .createTable(path, TableDescriptor.builder().schema(schema).distributedBy(buckets, bucketKeys).build(),
                        false).get();
    }

    /** Each row as "a|b|c", in result order. */
    static List<String> rows(ResultSet rs) throws SQLException {
        List<String> rows = new ArrayList<>();
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            StringJoiner row = new StringJoiner("|");
            for (int i = 1; i <= columns; i++) {
                row.add(String.valueOf(rs.getObject(i)));
            }
            rows.add(row.toString());
        }
        rs.close();
        return rows;
    }

    static List<String> query(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            return rows(statement.executeQuery(sql));
        }
    }

    static String explain(Connection connection, String sql) throws SQLException {
        return String.join("\n", query(connection, "EXPLAIN PLAN FOR " + sql));
    }

    /** EXPLAIN of a query with {@code ?} parameters (Avatica wants them bound even to explain). */
    static String explainPrepared(Connection connection, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("EXPLAIN PLAN FOR " + sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return String.join("\n", rows(statement.executeQuery()));
        }
    }
}
