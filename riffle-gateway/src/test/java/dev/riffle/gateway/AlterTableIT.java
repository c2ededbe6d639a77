package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code PATCH} on a table: columns added (older rows read them as null everywhere), options set and reset. */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class AlterTableIT {
    private static final String COLUMNS = "[{\"name\": \"id\", \"type\": \"INT\"}, {\"name\": \"v\", \"type\": \"STRING\"}]";

    private Api api;

    @AfterEach
    void noArrowMemoryHeld() {
        if (api != null) {
            api.assertNoArrowMemoryHeld();
        }
    }

    @Test
    void addedColumnsReadAsNullInOlderRowsOnScansLookupsAndSql(Api api, TestNames names) {
        this.api = api;
        TablePath log = createTable(api, names.table("log"), COLUMNS, ", \"buckets\": 2");
        TablePath pk = createTable(api, names.table("pk"), COLUMNS, ", \"primary_key\": [\"id\"], \"buckets\": 2");
        write(log, "[{\"id\": 1, \"v\": \"a\"}, {\"id\": 2, \"v\": \"b\"}]");
        write(pk, "[{\"id\": 1, \"v\": \"a\"}, {\"id\": 2, \"v\": \"b\"}]");
        // A lookup now keeps a handle of the first schema in the gateway.
        assertThat(api.get(tableUrl(pk) + "/rows/1").text()).isEqualTo("{\"id\":1,\"v\":\"a\"}");

        Api.Response altered = api.send("PATCH", tableUrl(log),
                "{\"add_columns\": [{\"name\": \"n\", \"type\": \"BIGINT\", \"comment\": \"count\"}]}");
        assertThat(altered.status()).as(altered.text()).isEqualTo(200);
        assertThat(altered.json().get("schema_id").asInt()).isEqualTo(2);
        assertThat(altered.json().get("columns").get(2).toString())
                .isEqualTo("{\"name\":\"n\",\"type\":\"BIGINT\",\"comment\":\"count\"}");
        Api.Response alteredPk = api.send("PATCH", tableUrl(pk), "{\"add_columns\": [{\"name\": \"n\", \"type\": \"BIGINT\"}]}");
        assertThat(alteredPk.status()).as(alteredPk.text()).isEqualTo(200);

        write(log, "[{\"id\": 3, \"v\": \"c\", \"n\": 30}]");
        write(pk, "[{\"id\": 2, \"v\": \"b2\", \"n\": 20}, {\"id\": 3, \"v\": \"c\", \"n\": 30}]");

        assertThat(scanRows(log, "{}")).containsExactlyInAnyOrder(
                "{\"id\":1,\"v\":\"a\",\"n\":null}", "{\"id\":2,\"v\":\"b\",\"n\":null}", "{\"id\":3,\"v\":\"c\",\"n\":30}");
        assertThat(scanRows(log, "{\"columns\": [\"n\", \"id\"]}")).containsExactlyInAnyOrder(
                "{\"n\":null,\"id\":1}", "{\"n\":null,\"id\":2}", "{\"n\":30,\"id\":3}");
        assertThat(scanRows(pk, "{}")).containsExactlyInAnyOrder(
                "{\"id\":1,\"v\":\"a\",\"n\":null}", "{\"id\":2,\"v\":\"b2\",\"n\":20}", "{\"id\":3,\"v\":\"c\",\"n\":30}");
        // The gateway notices the new schema within its metadata second, then answers with it.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(api.get(tableUrl(pk) + "/rows/1").text())
                .isEqualTo("{\"id\":1,\"v\":\"a\",\"n\":null}"));
        assertThat(api.get(tableUrl(pk) + "/rows/2").text())
                .isEqualTo("{\"id\":2,\"v\":\"b2\",\"n\":20}");
        Api.Response sql = api.postJson("/v1/sql", "{\"sql\": \"SELECT id, n FROM " + log.getDatabaseName() + "."
                + log.getTableName() + " ORDER BY id\"}");
        assertThat(sql.status()).as(sql.text()).isEqualTo(200);
        assertThat(sql.json().get("rows").toString())
                .isEqualTo("[{\"id\":1,\"n\":null},{\"id\":2,\"n\":null},{\"id\":3,\"n\":30}]");
    }

    @Test
    void optionsAreSetAndReset(Api api, TestNames names) {
        this.api = api;
        TablePath log = createTable(api, names.table("opts"), COLUMNS, "");
        Api.Response set = api.send("PATCH", tableUrl(log), "{\"set\": {\"owner\": \"team-a\"}}");
        assertThat(set.status()).as(set.text()).isEqualTo(200);
        assertThat(set.json().get("custom_properties").get("owner").asText()).isEqualTo("team-a");
        Api.Response reset = api.send("PATCH", tableUrl(log), "{\"reset\": [\"owner\"]}");
        assertThat(reset.status()).as(reset.text()).isEqualTo(200);
        assertThat(reset.json().get("custom_properties").has("owner")).isFalse();
    }

    @Test
    void refusedChangesAnswer4xxNamingTheReasonAndChangeNothing(Api api, TestNames names) {
        this.api = api;
        TablePath log = createTable(api, names.table("refused"), COLUMNS, "");
        expect(api.send("PATCH", tableUrl(log), "{\"add_columns\": [{\"name\": \"m\", \"type\": \"INT NOT NULL\"}]}"),
                400, "invalid_alteration", "must be nullable");
        expect(api.send("PATCH", tableUrl(log), "{\"add_columns\": [{\"name\": \"v\", \"type\": \"INT\"}]}"),
                400, "invalid_request", "v already exists");
        expect(api.send("PATCH", tableUrl(log), "{\"add_columns\": [{\"name\": \"m\", \"type\": \"FANCY\"}]}"),
                400, "invalid_type", "FANCY");
        expect(api.send("PATCH", tableUrl(log), "{\"set\": {\"table.log.ttl\": \"1h\"}}"),
                400, "invalid_request", "not supported to alter");
        expect(api.send("PATCH", tableUrl(log), "{\"add_columns\": [{\"name\": \"m\", \"type\": \"INT\"}],"
                + " \"set\": {\"owner\": \"x\"}}"), 400, "invalid_request", "");
        expect(api.send("PATCH", tableUrl(log), "{}"), 400, "invalid_alteration", "at least one change");
        expect(api.send("PATCH", tableUrl(log), "{\"drop_columns\": [\"v\"]}"), 400, "invalid_request", "drop_columns");
        expect(api.send("PATCH", tableUrl(TablePath.of(log.getDatabaseName(), "missing")),
                "{\"set\": {\"owner\": \"x\"}}"), 404, "table_not_found", "missing");
        Api.Response skipped = api.send("PATCH", tableUrl(TablePath.of(log.getDatabaseName(), "missing")),
                "{\"set\": {\"owner\": \"x\"}, \"if_exists\": true}");
        assertThat(skipped.status()).as(skipped.text()).isEqualTo(204);

        JsonNode table = api.get(tableUrl(log)).json();
        assertThat(table.get("schema_id").asInt()).isEqualTo(1);
        assertThat(table.get("columns").size()).isEqualTo(2);
        assertThat(table.get("custom_properties").size()).isZero();
    }

    private static void expect(Api.Response response, int status, String code, String message) {
        assertThat(response.status()).as(response.text()).isEqualTo(status);
        assertThat(response.errorCode()).as(response.text()).isEqualTo(code);
        assertThat(response.errorMessage()).contains(message);
    }

    private void write(TablePath path, String rows) {
        Api.Response written = api.postJson(tableUrl(path) + "/rows", rows);
        assertThat(written.status()).as(written.text()).isEqualTo(200);
    }

    private List<String> scanRows(TablePath path, String body) {
        Api.Response scan = api.postJson(tableUrl(path) + "/scan", body);
        assertThat(scan.status()).as(scan.text()).isEqualTo(200);
        List<String> rows = new ArrayList<>();
        scan.json().get("rows").forEach(row -> rows.add(row.toString()));
        return rows;
    }
}
