package dev.riffle.pgwire;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.riffle.local.junit.LocalClusterExtension;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The catalog queries DBeaver's navigator, Grafana's PostgreSQL data source and Metabase's sync
 * send (taken from their public sources, each named in {@code clients/replayed-catalog-queries.sql}),
 * replayed over pgjdbc against Riffle's PostgreSQL port: each answers the rows the file says, from
 * the live Fluss catalog and the system catalogs as tables, not from a recognised query text.
 */
@ExtendWith({LocalClusterExtension.class, PgServerExtension.class})
class ReplayedCatalogQueriesIT {
    /** A schema of this test alone, all lower case as the tools' quote_ident comparisons expect. */
    private static final String SCHEMA = "replay_catalog";

    private PgWireServer server;

    @AfterEach
    void noArrowMemoryHeld() {
        if (server != null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);
        }
    }

    /** One statement of the file: where it is from, its binds, what it must answer. */
    private record Block(String source, List<Object> binds, List<String> expected, boolean unordered,
            List<String> contained, int count, boolean newConnection, String sql) {}

    @Test
    void toolsCatalogQueriesAnswerFromTheLiveCatalog(PgWireServer server) throws Exception {
        this.server = server;
        try (Connection sql = PgJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + SCHEMA);
            statement.execute("CREATE TABLE " + SCHEMA + ".orders (id BIGINT, region STRING COMMENT 'where',"
                    + " amount DECIMAL(10, 2), at TIMESTAMP_LTZ(3), PRIMARY KEY (id) NOT ENFORCED) COMMENT 'the orders'");
            statement.execute("CREATE TABLE " + SCHEMA + ".c_log (id INT, v STRING)");
            statement.executeUpdate("INSERT INTO " + SCHEMA + ".orders VALUES (1, 'eu', 5, TIMESTAMP '2024-01-01 10:00:00'),"
                    + " (2, 'us', 7.5, TIMESTAMP '2024-01-01 10:30:00'), (3, 'eu', 1, TIMESTAMP '2024-01-01 11:15:00')");
        }
        Map<String, String> names;
        try (Connection sql = PgJdbcIT.connect(server)) {
            names = Map.of("$SCHEMA_OID", single(sql, "SELECT oid FROM pg_namespace WHERE nspname = '" + SCHEMA + "'"),
                    "$TABLE_OID", single(sql, "SELECT '" + SCHEMA + ".orders'::regclass::oid"), "$SCHEMA", SCHEMA);
        }
        List<Block> blocks = blocks(names);
        assertThat(blocks).hasSizeGreaterThan(30);
        Connection sql = null;
        try {
            for (Block block : blocks) {
                if (sql == null || block.newConnection()) {
                    if (sql != null) {
                        sql.close();
                    }
                    sql = PgJdbcIT.connect(server);
                }
                List<String> rows = run(sql, block);
                String what = block.source() + "\n" + block.sql();
                if (block.count() >= 0) {
                    assertThat(rows).as(what).hasSize(block.count());
                } else if (!block.contained().isEmpty()) {
                    for (String row : block.contained()) {
                        assertThat(rows).as(what).anyMatch(actual -> matches(row, actual));
                    }
                } else {
                    assertThat(rows).as(what).hasSameSizeAs(block.expected());
                    List<String> remaining = new ArrayList<>(rows);
                    for (int i = 0; i < block.expected().size(); i++) {
                        String expected = block.expected().get(i);
                        if (block.unordered()) {
                            assertThat(remaining.removeIf(actual -> matches(expected, actual))).as(what + "\n" + rows)
                                    .isTrue();
                        } else {
                            assertThat(matches(expected, rows.get(i))).as(what + "\nexpected " + expected + "\nbut was "
                                    + rows.get(i)).isTrue();
                        }
                    }
                }
            }
            // Grafana's "Save & test" (pgx's Ping): a statement that is only a comment answers as empty
            try (Statement statement = sql.createStatement()) {
                assertThat(statement.execute("-- ping")).isFalse();
            }
        } finally {
            if (sql != null) {
                sql.close();
            }
        }
    }

    /** A row of the file (values joined by |, * for any value) against a row the server answered. */
    private static boolean matches(String expected, String actual) {
        String[] want = expected.split("\\|", -1);
        String[] got = actual.split("\\|", -1);
        if (want.length != got.length) {
            return false;
        }
        for (int i = 0; i < want.length; i++) {
            if (!want[i].equals("*") && !want[i].equals(got[i])) {
                return false;
            }
        }
        return true;
    }

    private static List<String> run(Connection sql, Block block) throws SQLException {
        boolean hasRows;
        try (PreparedStatement statement = sql.prepareStatement(block.sql())) {
            for (int i = 0; i < block.binds().size(); i++) {
                statement.setObject(i + 1, block.binds().get(i));
            }
            hasRows = statement.execute();
            List<String> rows = new ArrayList<>();
            if (hasRows) {
                try (ResultSet rs = statement.getResultSet()) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        StringJoiner row = new StringJoiner("|");
                        for (int c = 1; c <= columns; c++) {
                            row.add(Objects.requireNonNullElse(rs.getString(c), ""));
                        }
                        rows.add(row.toString());
                    }
                }
            }
            return rows;
        }
    }

    private static String single(Connection sql, String query) throws SQLException {
        try (Statement statement = sql.createStatement(); ResultSet rs = statement.executeQuery(query)) {
            assertThat(rs.next()).as(query).isTrue();
            return rs.getString(1);
        }
    }

    /** The file's blocks, {@code names} put in for their placeholders. */
    private static List<Block> blocks(Map<String, String> names) throws Exception {
        String text;
        try (InputStream in = ReplayedCatalogQueriesIT.class.getResourceAsStream("/clients/replayed-catalog-queries.sql")) {
            text = new String(Objects.requireNonNull(in, "replayed-catalog-queries.sql").readAllBytes(), UTF_8);
        }
        for (String name : List.of("$SCHEMA_OID", "$TABLE_OID", "$SCHEMA")) {
            text = text.replace(name, names.get(name));
        }
        ObjectMapper json = new ObjectMapper();
        List<Block> blocks = new ArrayList<>();
        for (String part : text.split("-- ----\n")) {
            String source = "";
            List<Object> binds = List.of();
            List<String> expected = new ArrayList<>();
            List<String> contained = new ArrayList<>();
            boolean unordered = false;
            boolean newConnection = false;
            int count = -1;
            StringBuilder sql = new StringBuilder();
            for (String line : part.split("\n")) {
                if (line.startsWith("-- source: ")) {
                    source = line;
                } else if (line.startsWith("-- binds: ")) {
                    List<Object> values = new ArrayList<>();
                    for (JsonNode value : json.readTree(line.substring("-- binds: ".length()))) {
                        values.add(value.isNumber() ? (Object) value.asInt()
                                : value.asText().chars().allMatch(Character::isDigit) ? (Object) Long.parseLong(value.asText())
                                        : value.asText());
                    }
                    binds = values;
                } else if (line.startsWith("-- expect: ")) {
                    expected.add(line.substring("-- expect: ".length()));
                } else if (line.equals("-- expect: ")) {
                    expected.add("");
                } else if (line.startsWith("-- expect-contains: ")) {
                    contained.add(line.substring("-- expect-contains: ".length()));
                } else if (line.startsWith("-- expect-count: ")) {
                    count = Integer.parseInt(line.substring("-- expect-count: ".length()).strip());
                } else if (line.equals("-- expect-unordered")) {
                    unordered = true;
                } else if (line.equals("-- connection: new")) {
                    newConnection = true;
                } else if (!line.startsWith("--")) {
                    sql.append(line).append('\n');
                }
            }
            if (!sql.toString().isBlank()) {
                blocks.add(new Block(source, binds, expected, unordered, contained, count, newConnection,
                        sql.toString().strip()));
            }
        }
        return blocks;
    }
}
