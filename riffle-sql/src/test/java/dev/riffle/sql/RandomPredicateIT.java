package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.createTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Seeded random data and random predicates (key equalities that become lookups, ranges and
 * IN-lists that stay filters, combinations): Riffle's answer equals a plain Java filter over
 * the rows the test wrote.
 */
@ExtendWith(LocalClusterExtension.class)
class RandomPredicateIT {
    private static final long SEED = 20240601L;

    record Row(int k, int g, String s, Integer v) {}

    @Test
    void randomPredicatesMatchAJavaFilter(LocalCluster cluster, Connection fluss, TestNames names) throws Exception {
        Random random = new Random(SEED);
        TablePath path = names.table("random");
        createTable(fluss, path, Schema.newBuilder().column("k", DataTypes.INT()).column("g", DataTypes.INT())
                .column("s", DataTypes.STRING()).column("v", DataTypes.INT()).primaryKey("k").build(), 3, "k");
        Map<Integer, Row> state = new HashMap<>();
        try (Table table = fluss.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = 0; i < 600; i++) {
                int k = random.nextInt(300);
                if (random.nextInt(10) == 0 && state.containsKey(k)) {
                    Row old = state.remove(k);
                    writer.delete(GenericRow.of(k, old.g(), BinaryString.fromString(old.s()), old.v()));
                    continue;
                }
                Row row = new Row(k, random.nextInt(5), "s" + random.nextInt(20),
                        random.nextInt(8) == 0 ? null : random.nextInt(1000));
                state.put(k, row);
                writer.upsert(GenericRow.of(row.k(), row.g(), BinaryString.fromString(row.s()), row.v()));
            }
            writer.flush();
        }
        String t = path.getDatabaseName() + "." + path.getTableName();
        try (var sql = connect(cluster)) {
            for (int round = 0; round < 40; round++) {
                List<String> clauses = new ArrayList<>();
                List<Object> params = new ArrayList<>();
                Predicate<Row> expected = row -> true;
                int terms = 1 + random.nextInt(3);
                for (int term = 0; term < terms; term++) {
                    int kind = random.nextInt(6);
                    switch (kind) {
                        case 0 -> {
                            int k = random.nextInt(320);
                            clauses.add("k = " + k);
                            expected = expected.and(r -> r.k() == k);
                        }
                        case 1 -> {
                            int k = random.nextInt(320);
                            clauses.add("k = ?");
                            params.add(k);
                            expected = expected.and(r -> r.k() == k);
                        }
                        case 2 -> {
                            int a = random.nextInt(300);
                            int b = random.nextInt(300);
                            clauses.add("k IN (" + a + ", " + b + ")");
                            expected = expected.and(r -> r.k() == a || r.k() == b);
                        }
                        case 3 -> {
                            int v = random.nextInt(1000);
                            clauses.add("v > " + v);
                            expected = expected.and(r -> r.v() != null && r.v() > v);
                        }
                        case 4 -> {
                            int g = random.nextInt(5);
                            clauses.add("g <> " + g);
                            expected = expected.and(r -> r.g() != g);
                        }
                        default -> {
                            String s = "s" + random.nextInt(20);
                            clauses.add("(s = '" + s + "' OR v IS NULL)");
                            expected = expected.and(r -> r.s().equals(s) || r.v() == null);
                        }
                    }
                }
                String query = "SELECT k, g, s, v FROM " + t + " WHERE " + String.join(" AND ", clauses) + " ORDER BY k";
                List<String> want = state.values().stream().filter(expected)
                        .sorted((x, y) -> Integer.compare(x.k(), y.k()))
                        .map(r -> r.k() + "|" + r.g() + "|" + r.s() + "|" + r.v()).toList();
                try (PreparedStatement statement = sql.prepareStatement(query)) {
                    for (int i = 0; i < params.size(); i++) {
                        statement.setObject(i + 1, params.get(i));
                    }
                    ResultSet rs = statement.executeQuery();
                    assertThat(SqlFixtures.rows(rs)).as("round %s: %s %s", round, query, params).isEqualTo(want);
                }
            }
        }
    }
}
