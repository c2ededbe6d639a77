package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.List;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Repeated SQL point queries ({@code POST /v1/sql} with a statement run before as a key lookup),
 * which the gateway answers without a SQL connection ({@code SqlLookupHandler}): every answer
 * must be the route's own, byte for byte, and everything else must still reach the route intact.
 * The route's answer to the same request is taken with {@code Accept: application/json; q=1},
 * which the repeated-lookup path leaves to the route; the metric
 * {@code riffle_gateway_sql_key_lookups_total} tells which path answered.
 */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class SqlKeyLookupIT {
    private static final String ROUTE_ONLY = "application/json; q=1";

    private Api api;

    @AfterEach
    void noArrowMemoryHeld() {
        if (api != null) {
            api.assertNoArrowMemoryHeld();
        }
    }

    private Api.Response sql(String sql, String parameters, String... headers) {
        String body = "{\"sql\": " + Api.JSON.valueToTree(sql) + (parameters == null ? "" : ", \"parameters\": " + parameters)
                + "}";
        return api.postJson("/v1/sql", body, headers);
    }

    private Api.Response byRoute(String sql, String parameters) {
        return sql(sql, parameters, "Accept", ROUTE_ONLY);
    }

    /** Point queries answered without a SQL connection so far. */
    private long keyLookups() {
        Api.Response metrics = api.get("/metrics");
        assertThat(metrics.status()).isEqualTo(200);
        for (String line : metrics.text().split("\n")) {
            if (line.startsWith("riffle_gateway_sql_key_lookups_total ")) {
                return (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim());
            }
        }
        throw new AssertionError("No riffle_gateway_sql_key_lookups_total in /metrics");
    }

    private static String table(TablePath path) {
        return path.getDatabaseName() + ".\"" + path.getTableName() + "\"";
    }

    /** Runs {@code sql} once (so it is known), then asks each parameter list twice: repeated and by the route. */
    private void answersAsTheRoute(String sql, List<String> parameters) {
        Api.Response first = sql(sql, parameters.get(0));
        assertThat(first.status()).as(first.text()).isEqualTo(200);
        long before = keyLookups();
        for (String values : parameters) {
            Api.Response repeated = sql(sql, values);
            Api.Response route = byRoute(sql, values);
            assertThat(route.status()).as(route.text()).isEqualTo(200);
            assertThat(repeated.status()).as(repeated.text()).isEqualTo(200);
            assertThat(repeated.header("Content-Type")).isEqualTo(route.header("Content-Type"));
            assertThat(repeated.text()).as("%s with %s", sql, values).isEqualTo(route.text());
        }
        assertThat(keyLookups() - before).as("answered without a SQL connection").isEqualTo(parameters.size());
    }

    @Test
    void everyTypeIsAnsweredAsTheRouteAnswersIt(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("all_types"), WriteIT.ALL_TYPES, ", \"primary_key\": [\"id\"]");
        Api.Response written = api.postJson(tableUrl(path) + "/rows", WriteIT.ALL_TYPES_ROWS);
        assertThat(written.status()).as(written.text()).isEqualTo(200);

        // A row of values, a row of nulls, and a key without a row.
        answersAsTheRoute("SELECT * FROM " + table(path) + " WHERE id = ?", List.of("[1]", "[2]", "[3]"));
        Api.Response one = sql("SELECT * FROM " + table(path) + " WHERE id = ?", "[1]");
        assertThat(one.json().get("rows").get(0).get("name").asText()).isEqualTo("héllo ✓");
        assertThat(one.json().get("rowCount").asInt()).isEqualTo(1);
        // Some columns, renamed and reordered; a key given in the text.
        answersAsTheRoute("SELECT name AS who, amount, id FROM " + table(path) + " WHERE id = ?", List.of("[1]", "[2]"));
        answersAsTheRoute("SELECT big FROM " + table(path) + " WHERE id = 1", List.of("[]"));
    }

    @Test
    void compositeKeysAndPrefixLookupsAnswerAsTheRoute(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("orders"), "[{\"name\": \"region\", \"type\": \"STRING\"},"
                + " {\"name\": \"id\", \"type\": \"BIGINT\"}, {\"name\": \"amount\", \"type\": \"DECIMAL(10,2)\"}]",
                ", \"primary_key\": [\"region\", \"id\"], \"bucket_key\": [\"region\"], \"buckets\": 2");
        Api.Response written = api.postJson(tableUrl(path) + "/rows", "[{\"region\": \"eu\", \"id\": 1, \"amount\": 1.50},"
                + " {\"region\": \"eu\", \"id\": 2, \"amount\": 2.00}, {\"region\": \"us\", \"id\": 1, \"amount\": 3.25}]");
        assertThat(written.status()).as(written.text()).isEqualTo(200);

        answersAsTheRoute("SELECT * FROM " + table(path) + " WHERE region = ? AND id = ?",
                List.of("[\"eu\", 2]", "[\"us\", 1]", "[\"us\", 2]", "[\"eu\", 9223372036854775807]"));
        answersAsTheRoute("SELECT id, amount FROM " + table(path) + " WHERE region = ?", List.of("[\"eu\"]", "[\"xx\"]"));
        Api.Response prefix = sql("SELECT id, amount FROM " + table(path) + " WHERE region = ?", "[\"eu\"]");
        assertThat(prefix.json().get("rowCount").asInt()).isEqualTo(2);
        // A limit over a prefix lookup is computed above the read (EnumerableLimit): the route answers it, every time.
        String limited = "SELECT id FROM " + table(path) + " WHERE region = ? LIMIT 1";
        assertThat(sql(limited, "[\"eu\"]").json().get("rowCount").asInt()).isEqualTo(1);
        long before = keyLookups();
        assertThat(sql(limited, "[\"eu\"]").text()).isEqualTo(byRoute(limited, "[\"eu\"]").text());
        assertThat(keyLookups()).isEqualTo(before);
    }

    @Test
    void parametersItWouldNotTakeAsTheyAreGoToTheRoute(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("kv"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                + " {\"name\": \"v\", \"type\": \"STRING\"}]", ", \"primary_key\": [\"id\"]");
        assertThat(api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"v\": \"a\"}]").status()).isEqualTo(200);
        String query = "SELECT v FROM " + table(path) + " WHERE id = ?";
        assertThat(sql(query, "[1]").status()).isEqualTo(200);

        long before = keyLookups();
        // Text for a number, a NULL, a fraction, too many and too few parameters: each answered as the route answers it.
        for (String values : List.of("[\"1\"]", "[null]", "[1.5]", "[1, 2]", "[]")) {
            Api.Response answer = sql(query, values);
            Api.Response route = byRoute(query, values);
            assertThat(answer.status()).as("%s: %s", values, answer.text()).isEqualTo(route.status());
            assertThat(answer.text()).as(values).isEqualTo(route.text());
        }
        assertThat(keyLookups()).as("none answered without a SQL connection").isEqualTo(before);
        Api.Response extra = sql(query, "[1, 2]");
        assertThat(extra.status()).isEqualTo(400);
    }

    @Test
    void otherRequestsReachTheRouteWithTheirBodies(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("kv"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                + " {\"name\": \"v\", \"type\": \"STRING\"}]", ", \"primary_key\": [\"id\"]");
        assertThat(api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"v\": \"a\"}, {\"id\": 2, \"v\": \"b\"}]")
                .status()).isEqualTo(200);
        assertThat(sql("SELECT v FROM " + table(path) + " WHERE id = ?", "[1]").status()).isEqualTo(200);

        // With a key lookup known, the gateway reads each small JSON body to look: the rest must get it whole.
        Api.Response count = sql("SELECT count(*) AS n FROM " + table(path), null);
        assertThat(count.status()).as(count.text()).isEqualTo(200);
        assertThat(count.json().get("rows").toString()).isEqualTo("[{\"n\":2}]");
        Api.Response malformed = api.postJson("/v1/sql", "{\"sql\": ");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.errorCode()).isEqualTo("malformed_json");
        Api.Response text = api.post("/v1/sql", "text/plain", ("SELECT v FROM " + table(path) + " WHERE id = 2")
                .getBytes(UTF_8));
        assertThat(text.json().get("rows").toString()).isEqualTo("[{\"v\":\"b\"}]");
        Api.Response inserted = sql("INSERT INTO " + table(path) + " VALUES (?, ?)", "[3, \"c\"]");
        assertThat(inserted.json().get("updateCount").asLong()).isEqualTo(1);
        Api.Response unknownTable = sql("SELECT * FROM " + path.getDatabaseName() + ".no_such_table WHERE id = ?", "[1]");
        assertThat(unknownTable.status()).isEqualTo(404);
    }

    @Test
    void aTableCreatedAgainIsLookedUpAsItIsNow(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("again"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                + " {\"name\": \"v\", \"type\": \"STRING\"}]", ", \"primary_key\": [\"id\"]");
        assertThat(api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"v\": \"old\"}]").status()).isEqualTo(200);
        String query = "SELECT * FROM " + table(path) + " WHERE id = ?";
        assertThat(sql(query, "[1]").status()).isEqualTo(200);
        assertThat(sql(query, "[1]").json().get("rows").toString()).isEqualTo("[{\"id\":1,\"v\":\"old\"}]");

        assertThat(api.delete(tableUrl(path)).status()).isEqualTo(204);
        createTable(api, path, "[{\"name\": \"id\", \"type\": \"INT\"}, {\"name\": \"v\", \"type\": \"STRING\"},"
                + " {\"name\": \"w\", \"type\": \"INT\"}]", ", \"primary_key\": [\"id\"]");
        assertThat(api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"v\": \"new\", \"w\": 7}]").status())
                .isEqualTo(200);
        Api.Response now = sql(query, "[1]");
        assertThat(now.status()).as(now.text()).isEqualTo(200);
        assertThat(now.json().get("rows").toString()).isEqualTo("[{\"id\":1,\"v\":\"new\",\"w\":7}]");
        assertThat(sql(query, "[1]").text()).isEqualTo(byRoute(query, "[1]").text());
    }
}
