package dev.riffle.gateway.mcp;

import static dev.riffle.gateway.mcp.McpClients.call;
import static dev.riffle.gateway.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.riffle.gateway.Gateway;
import dev.riffle.lake.tiering.TieringService;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.mcp.tool.McpLimits;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The MCP server through the MCP SDK's own client, over both transports: the gateway's
 * {@code /mcp} (streamable HTTP) and a process serving stdio. Tables are made and written with
 * the official Fluss client, and the answers are checked against it.
 */
@ExtendWith(LocalClusterExtension.class)
class McpIT {
    enum Transport { HTTP, STDIO }

    private static final int EVENTS = 30;
    private static final int CLICKS = 50;

    @TempDir
    static Path dir;
    static Gateway readOnly;
    static Gateway writable;
    static final Map<Transport, McpSyncClient> READ_ONLY = new EnumMap<>(Transport.class);
    static final Map<Transport, McpSyncClient> WRITABLE = new EnumMap<>(Transport.class);
    static String db;
    static TablePath events;
    static TablePath users;
    static TablePath visits;
    static TablePath clicks;
    static TablePath notes;

    @BeforeAll
    static void start(LocalCluster cluster, Connection connection, TestNames names) throws Exception {
        // A database of its own: list_tables is checked against all of it.
        db = names.database("mcp");
        events = TablePath.of(db, "events");
        users = TablePath.of(db, "users");
        visits = TablePath.of(db, "visits");
        clicks = TablePath.of(db, "clicks");
        notes = TablePath.of(db, "notes");
        try (Admin admin = connection.getAdmin()) {
            admin.createDatabase(db, DatabaseDescriptor.EMPTY, false).get();
            admin.createTable(events, TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build())
                    .comment("what happened").distributedBy(3).build(), false).get();
            admin.createTable(users, TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("id", DataTypes.BIGINT()).withComment("the user's id")
                    .column("name", DataTypes.STRING())
                    .column("score", DataTypes.DECIMAL(10, 2)).primaryKey("id").build())
                    .distributedBy(1).build(), false).get();
            admin.createTable(visits, TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("day", DataTypes.STRING()).column("id", DataTypes.INT()).column("url", DataTypes.STRING())
                    .build()).distributedBy(2).partitionedBy("day").build(), false).get();
            admin.createTable(notes, TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("id", DataTypes.BIGINT()).column("name", DataTypes.STRING())
                    .column("score", DataTypes.DECIMAL(10, 2)).primaryKey("id").build())
                    .distributedBy(1).build(), false).get();
            for (String day : List.of("2026-12-01", "2026-12-02")) {
                admin.createPartition(visits, new PartitionSpec(Map.of("day", day)), false).get();
            }
            admin.createTable(clicks, TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("id", DataTypes.INT()).column("v", DataTypes.STRING()).build()).distributedBy(2)
                    .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s").build(),
                    false).get();
        }
        try (Table table = connection.getTable(events)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < EVENTS; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("event-" + i)));
            }
            writer.flush();
        }
        try (Table table = connection.getTable(users)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (long i = 0; i < 20; i++) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString("user-" + i),
                        Decimal.fromBigDecimal(BigDecimal.valueOf(i * 100 + 5, 2), 10, 2)));
            }
            writer.flush();
            writer.upsert(GenericRow.of(7L, BinaryString.fromString("seven"),
                    Decimal.fromBigDecimal(new BigDecimal("77.70"), 10, 2)));
            writer.delete(GenericRow.of(8L, BinaryString.fromString("user-8"),
                    Decimal.fromBigDecimal(new BigDecimal("8.05"), 10, 2)));
            writer.flush();
        }
        try (Table table = connection.getTable(visits)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < 10; i++) {
                writer.append(GenericRow.of(BinaryString.fromString(i < 6 ? "2026-12-01" : "2026-12-02"), i,
                        BinaryString.fromString("/page/" + i)));
            }
            writer.flush();
        }
        try (Table table = connection.getTable(clicks)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < CLICKS; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("c" + i)));
            }
            writer.flush();
        }
        try (TieringService tiering = TieringService.builder().clientConfig(cluster.clientConfig())
                .lake("paimon", cluster.lakeCatalogOptions()).pollInterval(Duration.ofMillis(200)).start();
                Admin admin = connection.getAdmin()) {
            await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> assertThat(
                    admin.getReadableLakeSnapshot(clicks).get().getTableBucketsOffset().values().stream()
                            .mapToLong(Long::longValue).sum()).isEqualTo(CLICKS));
        }

        readOnly = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0).start();
        writable = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .mcp(new McpLimits(100, 300, true)).start();
        String bootstrap = cluster.clientConfig().toMap().get("bootstrap.servers");
        READ_ONLY.put(Transport.HTTP, McpClients.http(readOnly.url(), Map.of()));
        READ_ONLY.put(Transport.STDIO, McpClients.stdio(bootstrap, 200, 64 * 1024, false, dir));
        WRITABLE.put(Transport.HTTP, McpClients.http(writable.url(), Map.of()));
        WRITABLE.put(Transport.STDIO, McpClients.stdio(bootstrap, 100, 300, true, dir));
        for (McpSyncClient client : List.of(READ_ONLY.get(Transport.HTTP), READ_ONLY.get(Transport.STDIO),
                WRITABLE.get(Transport.HTTP), WRITABLE.get(Transport.STDIO))) {
            client.initialize();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (McpSyncClient client : READ_ONLY.values()) {
            client.closeGracefully();
        }
        for (McpSyncClient client : WRITABLE.values()) {
            client.closeGracefully();
        }
        if (readOnly != null) {
            readOnly.close(); // fails if Arrow memory leaked
        }
        if (writable != null) {
            writable.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void listsItsToolsResourcesAndPrompts(Transport transport) {
        McpSyncClient client = READ_ONLY.get(transport);
        Map<String, McpSchema.Tool> tools = client.listTools().tools().stream()
                .collect(Collectors.toMap(McpSchema.Tool::name, t -> t));
        assertThat(tools.keySet()).containsExactlyInAnyOrder("list_databases", "list_tables", "describe_table",
                "query", "explain", "lookup", "tail", "sample");
        assertThat(tools.get("lookup").inputSchema().required()).containsExactly("table", "key");
        assertThat(tools.get("query").description()).contains("read-only");
        assertThat(tools.get("query").annotations().readOnlyHint()).isTrue();

        assertThat(client.listResourceTemplates().resourceTemplates())
                .extracting(McpSchema.ResourceTemplate::uriTemplate).containsExactly("riffle://{database}/{table}");
        // The listed resources follow the catalog: the tables made above appear.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(client.listResources().resources())
                .extracting(McpSchema.Resource::uri).contains(uri(events), uri(users)));
        McpSchema.ReadResourceResult schema = client.readResource(new McpSchema.ReadResourceRequest(
                uri(users)));
        String json = ((McpSchema.TextResourceContents) schema.contents().get(0)).text();
        assertThat(json).contains("\"primary_key\" : [ \"id\" ]", "\"the user's id\"", "DECIMAL(10, 2)");

        assertThat(client.listPrompts().prompts()).extracting(McpSchema.Prompt::name)
                .containsExactlyInAnyOrder("explore_table", "write_query");
        McpSchema.GetPromptResult prompt = client.getPrompt(new McpSchema.GetPromptRequest("explore_table",
                Map.of("table", users.toString())));
        assertThat(((McpSchema.TextContent) prompt.messages().get(0).content()).text()).contains(users.toString(),
                "describe_table");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void catalogToolsDescribeEveryKindOfTable(Transport transport, Connection connection) throws Exception {
        McpSyncClient client = READ_ONLY.get(transport);
        McpSchema.CallToolResult databases = call(client, "list_databases", Map.of());
        assertThat(databases.isError()).isFalse();
        assertThat(text(databases)).contains("- " + db);

        McpSchema.CallToolResult tables = call(client, "list_tables", Map.of("database", db));
        assertThat(tables.isError()).as(text(tables)).isFalse();
        List<Map<String, Object>> rows = rows(tables, "tables");
        Map<String, Map<String, Object>> byName = rows.stream().collect(Collectors.toMap(r -> (String) r.get("table"),
                r -> r));
        try (Admin admin = connection.getAdmin()) {
            assertThat(byName.keySet()).isEqualTo(admin.listTables(db).get().stream().map(t -> db + "." + t)
                    .collect(Collectors.toSet()));
        }
        assertThat(byName.get(users.toString())).containsEntry("kind", "primary-key").containsEntry("primary_key",
                List.of("id")).containsEntry("buckets", 1);
        assertThat(byName.get(events.toString())).containsEntry("kind", "log").containsEntry("buckets", 3);
        assertThat(byName.get(visits.toString())).containsEntry("kind", "log partitioned")
                .containsEntry("partitioned_by", List.of("day"));
        assertThat(byName.get(clicks.toString())).containsEntry("datalake", true);

        McpSchema.CallToolResult described = call(client, "describe_table", Map.of("table", users.toString()));
        assertThat(text(described)).contains("primary key: id", "the user's id", "DECIMAL(10, 2)");
        // 20 inserts, an update (-U, +U) and a delete: 23 changes in the one bucket's log.
        assertThat(offsets(described)).containsExactly(List.of(0, 23));

        McpSchema.CallToolResult partitioned = call(client, "describe_table", Map.of("table", visits.toString()));
        List<Map<String, Object>> visitOffsets = rows(partitioned, "offsets");
        assertThat(visitOffsets).hasSize(4).extracting(b -> b.get("partition")).containsOnly("2026-12-01",
                "2026-12-02");
        assertThat(visitOffsets.stream().mapToInt(b -> (Integer) b.get("latest_offset")).sum()).isEqualTo(10);

        McpSchema.CallToolResult lake = call(client, "describe_table", Map.of("table", clicks.toString()));
        @SuppressWarnings("unchecked")
        Map<String, Object> lakeFacts = (Map<String, Object>) structured(lake).get("lake");
        try (Admin admin = connection.getAdmin()) {
            assertThat(((Number) lakeFacts.get("snapshot_id")).longValue())
                    .isEqualTo(admin.getLatestLakeSnapshot(clicks).get().getSnapshotId());
        }
        assertThat(lakeFacts).containsEntry("lag_records", 0);
        assertThat(text(lake)).contains("lake: snapshot ");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void queryExplainSampleTailAndLookupAnswerWhatFlussHolds(Transport transport, Connection connection)
            throws Exception {
        McpSyncClient client = READ_ONLY.get(transport);
        McpSchema.CallToolResult count = call(client, "query", Map.of("sql", "SELECT count(*) AS n FROM " + events
                + ""));
        assertThat(rows(count, "rows")).containsExactly(Map.of("n", EVENTS));
        assertThat(text(count)).contains(" n", "30", "(1 row)");
        McpSchema.CallToolResult union = call(client, "query", Map.of("sql", "SELECT count(*) AS n FROM " + clicks
                + ""));
        assertThat(rows(union, "rows")).containsExactly(Map.of("n", CLICKS));
        McpSchema.CallToolResult day = call(client, "query", Map.of("sql", "SELECT id FROM " + visits
                + " WHERE \"day\" = '2026-12-02' ORDER BY id"));
        assertThat(rows(day, "rows")).extracting(r -> r.get("id")).containsExactly(6, 7, 8, 9);

        McpSchema.CallToolResult lookupPlan = call(client, "explain", Map.of("sql", "SELECT * FROM " + users
                + " WHERE id = 7"));
        assertThat(text(lookupPlan)).startsWith("access path: " + users + " by PointLookup[id=7]");
        McpSchema.CallToolResult limitPlan = call(client, "explain", Map.of("sql", "SELECT * FROM " + events
                + " LIMIT 3"));
        assertThat(rows(limitPlan, "access_paths")).singleElement().satisfies(p -> assertThat(
                (String) p.get("access")).containsIgnoringCase("limit"));

        McpSchema.CallToolResult sample = call(client, "sample", Map.of("table", events.toString(), "limit", 4));
        List<Map<String, Object>> sampled = rows(sample, "rows");
        assertThat(sampled).hasSize(4).allSatisfy(r -> assertThat(r.get("name")).isEqualTo("event-" + r.get("id")));
        assertThat(text(sample)).contains("(4 rows)", "Cut at the row limit of 4: more rows follow");

        McpSchema.CallToolResult tail = call(client, "tail", Map.of("table", users.toString(), "limit", 3));
        assertThat(rows(tail, "rows")).extracting(r -> r.get("_change_type") + " " + r.get("id") + " " + r.get("name"))
                .containsExactly("-U 7 user-7", "+U 7 seven", "-D 8 user-8");

        McpSchema.CallToolResult seven = call(client, "lookup", Map.of("table", users.toString(), "key", Map.of("id", 7)));
        @SuppressWarnings("unchecked")
        Map<String, Object> row = (Map<String, Object>) structured(seven).get("row");
        try (Table table = connection.getTable(users)) {
            Lookuper lookuper = table.newLookup().createLookuper();
            InternalRow expected = lookuper.lookup(GenericRow.of(7L)).get().getSingletonRow();
            assertThat(row).containsEntry("id", 7).containsEntry("name", expected.getString(1).toString());
            assertThat(new BigDecimal(row.get("score").toString()))
                    .isEqualByComparingTo(expected.getDecimal(2, 10, 2).toBigDecimal());
            assertThat(lookuper.lookup(GenericRow.of(8L)).get().getSingletonRow()).isNull();
        }
        assertThat(text(seven)).contains("seven", "77.70");
        McpSchema.CallToolResult deleted = call(client, "lookup", Map.of("table", users.toString(), "key",
                Map.of("id", 8)));
        assertThat(deleted.isError()).isFalse();
        assertThat(structured(deleted)).containsEntry("found", false);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void everyReadingToolServesEveryKindOfTable(Transport transport) {
        McpSyncClient client = READ_ONLY.get(transport);
        // table -> (its rows, its changes): a log table, a primary-key table (20 keys, one deleted, 23
        // changes), a partitioned table, a datalake table read through its lake snapshot.
        Map<TablePath, List<Integer>> expected = Map.of(events, List.of(EVENTS, EVENTS), users, List.of(19, 23),
                visits, List.of(10, 10), clicks, List.of(CLICKS, CLICKS));
        expected.forEach((table, counts) -> {
            String name = table.toString();
            assertThat(rows(call(client, "query", Map.of("sql", "SELECT count(*) AS n FROM " + name)), "rows"))
                    .as(name).containsExactly(Map.of("n", counts.get(0)));
            assertThat(rows(call(client, "sample", Map.of("table", name, "limit", 3)), "rows")).as(name).hasSize(3);
            List<Map<String, Object>> changes = rows(call(client, "tail", Map.of("table", name, "limit", 200)),
                    "rows");
            assertThat(changes).as(name).hasSize(counts.get(1));
            assertThat(changes).extracting(c -> (String) c.get("_change_type")).as(name)
                    .containsAnyOf("+A", "+I", "-U", "+U", "-D");
            assertThat(rows(call(client, "describe_table", Map.of("table", name)), "offsets")).as(name)
                    .isNotEmpty();
            assertThat(rows(call(client, "explain", Map.of("sql", "SELECT * FROM " + name)), "access_paths"))
                    .as(name).hasSize(1);
        });
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void answersAreCappedInRowsAndBytesAndSaySo(Transport transport) {
        McpSyncClient client = WRITABLE.get(transport); // 100 rows, 300 bytes
        McpSchema.CallToolResult all = call(client, "query", Map.of("sql", "SELECT * FROM " + events.toString()));
        List<Map<String, Object>> kept = rows(all, "rows");
        assertThat(kept).isNotEmpty().hasSizeLessThan(EVENTS);
        assertThat(text(all).getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThan(500);
        assertThat((String) structured(all).get("cut")).startsWith("the byte cap of 300 bytes of text: " + kept.size()
                + " rows are shown");
        McpSchema.CallToolResult limited = call(client, "query", Map.of("sql", "SELECT * FROM " + events.toString(),
                "limit", 5));
        assertThat(rows(limited, "rows")).hasSize(5);
        assertThat(structured(limited)).containsEntry("cut", "the row limit of 5: more rows follow");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void writesAreRefusedUnlessTheServerAllowsThem(Transport transport, Connection connection) throws Exception {
        long id = 1000 + transport.ordinal();
        McpSchema.CallToolResult refused = call(READ_ONLY.get(transport), "query", Map.of("sql",
                "INSERT INTO " + notes + " VALUES (" + id + ", 'new', 1.50)"));
        assertThat(refused.isError()).isTrue();
        assertThat(text(refused)).startsWith("[read_only] This MCP server is read-only");
        McpSchema.CallToolResult ddl = call(READ_ONLY.get(transport), "query", Map.of("sql",
                "CREATE TABLE " + db + ".made_by_agent (id INT)"));
        assertThat(text(ddl)).startsWith("[read_only]");
        try (Table table = connection.getTable(notes); Admin admin = connection.getAdmin()) {
            assertThat(table.newLookup().createLookuper().lookup(GenericRow.of(id)).get().getSingletonRow()).isNull();
            assertThat(admin.tableExists(TablePath.of(db, "made_by_agent")).get()).isFalse();

            McpSchema.CallToolResult inserted = call(WRITABLE.get(transport), "query", Map.of("sql",
                    "INSERT INTO " + notes + " VALUES (" + id + ", 'new', 1.50)"));
            assertThat(inserted.isError()).as(text(inserted)).isFalse();
            assertThat(structured(inserted)).containsEntry("updated_rows", 1);
            InternalRow row = table.newLookup().createLookuper().lookup(GenericRow.of(id)).get().getSingletonRow();
            assertThat(row.getString(1).toString()).isEqualTo("new");
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void badArgumentsAnswerToolErrorsThatSayWhatWasWrong(Transport transport) {
        McpSyncClient client = READ_ONLY.get(transport);
        McpSchema.CallToolResult unknownTable = call(client, "sample", Map.of("table", db + ".nope"));
        assertThat(unknownTable.isError()).isTrue();
        assertThat(text(unknownTable)).startsWith("[table_not_found]").contains(db + ".nope");
        McpSchema.CallToolResult badSql = call(client, "query", Map.of("sql", "SELECT FROM WHERE"));
        assertThat(badSql.isError()).isTrue();
        assertThat(text(badSql)).startsWith("[").doesNotContain("Exception", "\tat ");
        McpSchema.CallToolResult wrongType = call(client, "sample", Map.of("table", events.toString(), "limit", "ten"));
        assertThat(text(wrongType)).isEqualTo("[invalid_argument] Tool sample takes 'limit' as a whole number, got a "
                + "string");
        McpSchema.CallToolResult missing = call(client, "describe_table", Map.of());
        assertThat(text(missing)).isEqualTo("[invalid_argument] Tool describe_table needs the argument 'table'");
        McpSchema.CallToolResult notQualified = call(client, "tail", Map.of("table", "events"));
        assertThat(text(notQualified)).contains("as database.table, got 'events'");
        McpSchema.CallToolResult wrongKey = call(client, "lookup", Map.of("table", users.toString(), "key",
                Map.of("name", "x")));
        assertThat(text(wrongKey)).contains("needs exactly the primary key [id]");
        McpSchema.CallToolResult logLookup = call(client, "lookup", Map.of("table", events.toString(), "key",
                Map.of("id", 1)));
        assertThat(text(logLookup)).contains("is a log table");
        assertThatThrownBy(() -> call(client, "drop_everything", Map.of())).hasMessageContaining("Unknown tool");
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void anAgentSessionDiscoversDescribesQueriesAndLooksUp(Transport transport, Connection connection)
            throws Exception {
        McpSyncClient client = READ_ONLY.get(transport);
        // Discover: the database, then its primary-key table.
        assertThat(text(call(client, "list_databases", Map.of()))).contains(db);
        String table = rows(call(client, "list_tables", Map.of("database", db)), "tables").stream()
                .filter(t -> "primary-key".equals(t.get("kind")) && t.get("table").toString().endsWith(".users")).map(t -> (String) t.get("table")).findFirst()
                .orElseThrow();
        assertThat(table).isEqualTo(users.toString());
        // Describe: its key.
        @SuppressWarnings("unchecked")
        List<String> key = (List<String>) structured(call(client, "describe_table", Map.of("table", table)))
                .get("primary_key");
        assertThat(key).containsExactly("id");
        // Query: the rows with the highest scores.
        List<Map<String, Object>> top = rows(call(client, "query", Map.of("sql", "SELECT id, score FROM " + table
                + " ORDER BY score DESC LIMIT 3")), "rows");
        assertThat(top).hasSize(3);
        // Look up each by its key: the same rows the Fluss client finds.
        try (Table fluss = connection.getTable(users)) {
            Lookuper lookuper = fluss.newLookup().createLookuper();
            for (Map<String, Object> row : top) {
                Map<String, Object> found = rows(call(client, "lookup", Map.of("table", table, "key",
                        Map.of("id", row.get("id")))), null).get(0);
                InternalRow expected = lookuper.lookup(GenericRow.of(((Number) row.get("id")).longValue())).get()
                        .getSingletonRow();
                assertThat(found.get("name")).isEqualTo(expected.getString(1).toString());
                assertThat(new BigDecimal(found.get("score").toString()))
                        .isEqualByComparingTo(expected.getDecimal(2, 10, 2).toBigDecimal());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = "HTTP")
    void toolCallsAreCountedInMetrics(Transport transport) throws Exception {
        call(READ_ONLY.get(transport), "list_databases", Map.of());
        call(READ_ONLY.get(transport), "sample", Map.of("table", "no_db.no_table"));
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(readOnly.url() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.body()).containsPattern(
                "riffle_mcp_tool_calls_seconds_count\\{outcome=\"ok\",tool=\"list_databases\"} [1-9]")
                .containsPattern("riffle_mcp_tool_calls_seconds_count\\{outcome=\"error\",tool=\"sample\"} [1-9]");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> structured(McpSchema.CallToolResult result) {
        assertThat(result.isError()).as(text(result)).isFalse();
        return (Map<String, Object>) result.structuredContent();
    }

    /** The list under {@code field} of the structured content, or the looked-up row (field null). */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> rows(McpSchema.CallToolResult result, String field) {
        Map<String, Object> structured = structured(result);
        if (field == null) {
            List<Map<String, Object>> one = new ArrayList<>();
            one.add((Map<String, Object>) structured.get("row"));
            return one;
        }
        return (List<Map<String, Object>>) structured.get(field);
    }

    /** Each bucket's [earliest, latest] offsets, in order. */
    static List<List<Integer>> offsets(McpSchema.CallToolResult result) {
        return rows(result, "offsets").stream().map(b -> List.of((Integer) b.get("earliest_offset"),
                (Integer) b.get("latest_offset"))).toList();
    }

    static String uri(TablePath table) {
        return "riffle://" + table.getDatabaseName() + "/" + table.getTableName();
    }
}
