package dev.riffle.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.ArrayList;
import java.util.List;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Databases, tables, partitions and offsets over HTTP. */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class MetadataIT {

    @Test
    void databaseLifecycle(Api api, TestNames names) {
        String db = names.database("shop");
        Api.Response created = api.postJson("/v1/databases",
                "{\"name\": \"" + db + "\", \"comment\": \"orders\", \"properties\": {\"owner\": \"team-a\"}}");
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        assertThat(created.json().get("name").asText()).isEqualTo(db);

        assertThat(texts(api.get("/v1/databases").json().get("databases"))).contains(db, "fluss");
        JsonNode described = api.get("/v1/databases/" + db).json();
        assertThat(described.get("comment").asText()).isEqualTo("orders");
        assertThat(described.get("properties").get("owner").asText()).isEqualTo("team-a");

        Api.Response again = api.postJson("/v1/databases", "{\"name\": \"" + db + "\"}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.errorCode()).isEqualTo("database_exists");
        assertThat(api.postJson("/v1/databases", "{\"name\": \"" + db + "\", \"if_not_exists\": true}").status())
                .isEqualTo(201);

        // A database with a table is only dropped with cascade.
        assertThat(api.postJson("/v1/databases/" + db + "/tables", logTable("t")).status()).isEqualTo(201);
        Api.Response notEmpty = api.delete("/v1/databases/" + db);
        assertThat(notEmpty.status()).isEqualTo(409);
        assertThat(notEmpty.errorCode()).isEqualTo("database_not_empty");
        assertThat(notEmpty.errorMessage()).contains("cascade=true");
        assertThat(api.delete("/v1/databases/" + db + "?cascade=true").status()).isEqualTo(204);

        Api.Response gone = api.get("/v1/databases/" + db);
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.errorCode()).isEqualTo("database_not_found");
        assertThat(gone.errorMessage()).contains(db).contains("databases: [");
        assertThat(api.delete("/v1/databases/" + db).status()).isEqualTo(404);
        api.assertNoArrowMemoryHeld();
    }

    @Test
    void tableLifecycleWithEveryTypeKeysBucketsAndProperties(Api api, TestNames names) {
        TablePath path = names.table("orders");
        String body = "{\"name\": \"" + path.getTableName() + "\", \"columns\": ["
                + "{\"name\": \"id\", \"type\": \"BIGINT\", \"comment\": \"order id\"},"
                + "{\"name\": \"region\", \"type\": \"STRING\"},"
                + "{\"name\": \"amount\", \"type\": \"DECIMAL(10,2)\"},"
                + "{\"name\": \"at\", \"type\": \"TIMESTAMP(3)\"},"
                + "{\"name\": \"tags\", \"type\": \"ARRAY<INT>\"},"
                + "{\"name\": \"attrs\", \"type\": \"MAP<STRING, INT>\"},"
                + "{\"name\": \"pos\", \"type\": \"ROW<x DOUBLE, y DOUBLE>\"},"
                + "{\"name\": \"code\", \"type\": \"CHAR(3)\"},"
                + "{\"name\": \"day\", \"type\": \"DATE\"},"
                + "{\"name\": \"seen\", \"type\": \"TIMESTAMP_LTZ(6)\"}],"
                + "\"primary_key\": [\"region\", \"id\"], \"bucket_key\": [\"region\"], \"buckets\": 3,"
                + "\"properties\": {\"table.log.ttl\": \"2h\"}, \"custom_properties\": {\"team\": \"a\"},"
                + "\"comment\": \"all orders\"}";
        Api.Response created = api.postJson(tablesOf(path), body);
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        JsonNode table = created.json();
        assertThat(table.get("name").asText()).isEqualTo(path.getTableName());
        assertThat(texts(table.get("primary_key"))).containsExactly("region", "id");
        assertThat(texts(table.get("bucket_key"))).containsExactly("region");
        assertThat(table.get("buckets").asInt()).isEqualTo(3);
        assertThat(table.get("properties").get("table.log.ttl").asText()).isEqualTo("2h");
        assertThat(table.get("custom_properties").get("team").asText()).isEqualTo("a");
        assertThat(table.get("comment").asText()).isEqualTo("all orders");
        List<String> types = new ArrayList<>();
        table.get("columns").forEach(c -> types.add(c.get("name").asText() + " " + c.get("type").asText()));
        assertThat(types).containsExactly("id BIGINT NOT NULL", "region STRING NOT NULL", "amount DECIMAL(10, 2)",
                "at TIMESTAMP(3)", "tags ARRAY<INT>", "attrs MAP<STRING NOT NULL, INT>",
                "pos ROW<`x` DOUBLE, `y` DOUBLE>", "code CHAR(3)", "day DATE", "seen TIMESTAMP_LTZ(6)");
        assertThat(table.get("columns").get(0).get("comment").asText()).isEqualTo("order id");

        // What GET answers is the same description.
        assertThat(api.get(tableUrl(path)).json()).isEqualTo(table);
        assertThat(texts(api.get(tablesOf(path)).json().get("tables"))).contains(path.getTableName());

        Api.Response exists = api.postJson(tablesOf(path), body);
        assertThat(exists.status()).isEqualTo(409);
        assertThat(exists.errorCode()).isEqualTo("table_exists");

        assertThat(api.delete(tableUrl(path)).status()).isEqualTo(204);
        Api.Response gone = api.get(tableUrl(path));
        assertThat(gone.status()).isEqualTo(404);
        assertThat(gone.errorCode()).isEqualTo("table_not_found");
        assertThat(gone.errorMessage()).contains(path.toString());
        assertThat(api.delete(tableUrl(path)).errorCode()).isEqualTo("table_not_found");
    }

    @Test
    void badTableDefinitionsAreClear400s(Api api, TestNames names) {
        TablePath path = names.table("bad");
        Api.Response badType = api.postJson(tablesOf(path), "{\"name\": \"" + path.getTableName()
                + "\", \"columns\": [{\"name\": \"id\", \"type\": \"VARCHR(10)\"}]}");
        assertThat(badType.status()).isEqualTo(400);
        assertThat(badType.errorCode()).isEqualTo("invalid_type");
        assertThat(badType.errorMessage()).contains("'id'", "VARCHR(10)", "DECIMAL(p, s)");

        Api.Response badKey = api.postJson(tablesOf(path), "{\"name\": \"" + path.getTableName()
                + "\", \"columns\": [{\"name\": \"id\", \"type\": \"INT\"}], \"primary_key\": [\"nope\"]}");
        assertThat(badKey.status()).isEqualTo(400);
        assertThat(badKey.errorMessage()).contains("nope");

        Api.Response unknownField = api.postJson(tablesOf(path), "{\"name\": \"" + path.getTableName()
                + "\", \"columns\": [{\"name\": \"id\", \"type\": \"INT\"}], \"primary_keys\": [\"id\"]}");
        assertThat(unknownField.status()).isEqualTo(400);
        assertThat(unknownField.errorMessage()).contains("'primary_keys'", "primary_key");

        Api.Response noColumns = api.postJson(tablesOf(path), "{\"name\": \"" + path.getTableName() + "\"}");
        assertThat(noColumns.status()).isEqualTo(400);
        assertThat(noColumns.errorMessage()).contains("columns");

        Api.Response malformed = api.postJson(tablesOf(path), "{\"name\": ");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.errorCode()).isEqualTo("malformed_json");

        Api.Response wrongType = api.post(tablesOf(path), "text/plain", "name=x".getBytes());
        assertThat(wrongType.status()).isEqualTo(415);
        assertThat(wrongType.errorCode()).isEqualTo("unsupported_media_type");

        // A billion buckets is refused at once, naming the limit, before the cluster is asked.
        Api.Response tooManyBuckets = api.postJson(tablesOf(path), "{\"name\": \"" + path.getTableName()
                + "\", \"columns\": [{\"name\": \"id\", \"type\": \"INT\"}], \"buckets\": 1000000000}");
        assertThat(tooManyBuckets.status()).as(tooManyBuckets.text()).isEqualTo(400);
        assertThat(tooManyBuckets.errorCode()).isEqualTo("too_many_buckets");
        assertThat(tooManyBuckets.errorMessage()).contains("1000000000", "1024");

        Api.Response noDatabase = api.postJson("/v1/databases/no_such_db_here/tables", logTable("t"));
        assertThat(noDatabase.status()).isEqualTo(404);
        assertThat(noDatabase.errorCode()).isEqualTo("database_not_found");

        assertThat(api.get(tableUrl(path)).status()).as("nothing was created").isEqualTo(404);
    }

    @Test
    void partitionsListCreateDrop(Api api, TestNames names) {
        TablePath path = names.table("daily");
        Api.Response created = api.postJson(tablesOf(path), "{\"name\": \"" + path.getTableName() + "\", \"columns\": ["
                + "{\"name\": \"id\", \"type\": \"INT\"}, {\"name\": \"dt\", \"type\": \"STRING\"}],"
                + "\"partition_keys\": [\"dt\"], \"buckets\": 2}");
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        assertThat(texts(created.json().get("partition_keys"))).containsExactly("dt");

        Api.Response partition = api.postJson(tableUrl(path) + "/partitions", "{\"spec\": {\"dt\": \"2024-06-01\"}}");
        assertThat(partition.status()).as(partition.text()).isEqualTo(201);
        assertThat(partition.json().get("name").asText()).isEqualTo("2024-06-01");
        assertThat(partition.json().get("spec").get("dt").asText()).isEqualTo("2024-06-01");
        assertThat(api.postJson(tableUrl(path) + "/partitions", "{\"spec\": {\"dt\": \"2024-06-02\"}}").status())
                .isEqualTo(201);

        Api.Response again = api.postJson(tableUrl(path) + "/partitions", "{\"spec\": {\"dt\": \"2024-06-01\"}}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.errorCode()).isEqualTo("partition_exists");
        Api.Response badSpec = api.postJson(tableUrl(path) + "/partitions", "{\"spec\": {\"day\": \"2024-06-01\"}}");
        assertThat(badSpec.status()).isEqualTo(400);
        assertThat(badSpec.errorMessage()).contains("[dt]");

        List<String> listed = new ArrayList<>();
        api.get(tableUrl(path) + "/partitions").json().get("partitions").forEach(p -> listed.add(p.get("name").asText()));
        assertThat(listed).containsExactly("2024-06-01", "2024-06-02");

        assertThat(api.delete(tableUrl(path) + "/partitions/2024-06-01").status()).isEqualTo(204);
        Api.Response missing = api.delete(tableUrl(path) + "/partitions/2024-06-01");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("partition_not_found");
        listed.clear();
        api.get(tableUrl(path) + "/partitions").json().get("partitions").forEach(p -> listed.add(p.get("name").asText()));
        assertThat(listed).containsExactly("2024-06-02");

        TablePath plain = names.table("plain");
        api.postJson(tablesOf(plain), logTable(plain.getTableName()));
        Api.Response notPartitioned = api.get(tableUrl(plain) + "/partitions");
        assertThat(notPartitioned.status()).isEqualTo(400);
        assertThat(notPartitioned.errorCode()).isEqualTo("table_not_partitioned");
    }

    @Test
    void offsetsPerBucketWithoutALakeSnapshot(Api api, TestNames names) {
        TablePath path = names.table("events");
        api.postJson(tablesOf(path), "{\"name\": \"" + path.getTableName() + "\", \"columns\": ["
                + "{\"name\": \"id\", \"type\": \"INT\"}], \"bucket_key\": [\"id\"], \"buckets\": 2}");
        StringBuilder rows = new StringBuilder("[");
        for (int i = 0; i < 20; i++) {
            rows.append(i == 0 ? "" : ",").append("{\"id\": ").append(i).append('}');
        }
        assertThat(api.postJson(tableUrl(path) + "/rows", rows.append(']').toString()).status()).isEqualTo(200);

        Api.Response offsets = api.get(tableUrl(path) + "/offsets");
        assertThat(offsets.status()).as(offsets.text()).isEqualTo(200);
        JsonNode body = offsets.json();
        assertThat(body.get("table").asText()).isEqualTo(path.toString());
        assertThat(body.get("lake_snapshot_id").isNull()).isTrue();
        long total = 0;
        for (JsonNode bucket : body.get("buckets")) {
            assertThat(bucket.get("key").asText()).isEqualTo(bucket.get("bucket").asText());
            assertThat(bucket.get("earliest").asLong()).isZero();
            assertThat(bucket.get("lake").isNull()).isTrue();
            total += bucket.get("latest").asLong();
        }
        assertThat(body.get("buckets")).hasSize(2);
        assertThat(total).isEqualTo(20);
    }

    static String tablesOf(TablePath path) {
        return "/v1/databases/" + path.getDatabaseName() + "/tables";
    }

    static String tableUrl(TablePath path) {
        return "/v1/databases/" + path.getDatabaseName() + "/tables/" + path.getTableName();
    }

    static String logTable(String name) {
        return "{\"name\": \"" + name + "\", \"columns\": [{\"name\": \"id\", \"type\": \"INT\"}]}";
    }

    static List<String> texts(JsonNode array) {
        List<String> result = new ArrayList<>();
        array.forEach(n -> result.add(n.asText()));
        return result;
    }
}
