package dev.riffle.cli.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code riffle mcp} as an agent starts it: a process whose stdin and stdout carry MCP, reached
 * with the MCP SDK's stdio client. Its logs must stay off stdout, or the client could not read it.
 */
@ExtendWith(LocalClusterExtension.class)
class McpCommandIT {
    @Test
    void servesMcpOverStdioUntilStdinEnds(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("orders");
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("id", DataTypes.INT()).column("item", DataTypes.STRING()).build()).distributedBy(2).build(),
                    false).get();
        }
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < 12; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("item-" + i)));
            }
            writer.flush();
        }
        // The logging bin/riffle runs with (warnings to stderr, the rest to a file), not the tests'.
        ServerParameters process = ServerParameters.builder(Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString())
                .args(List.of("--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx512m",
                        "-D" + dev.riffle.cli.logging.CliLogConfigurator.CLI_LOGGING_PROPERTY + "=true", "-cp", System.getProperty("java.class.path"),
                        "dev.riffle.cli.RiffleCli", "mcp", "--bootstrap-servers",
                        cluster.clientConfig().toMap().get("bootstrap.servers"), "--mcp-max-rows", "5"))
                .build();
        JacksonMcpJsonMapper json = new JacksonMcpJsonMapper(new com.fasterxml.jackson.databind.ObjectMapper());
        StdioClientTransport transport = new StdioClientTransport(process, json);
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60)).build()) {
            McpSchema.InitializeResult init = client.initialize();
            assertThat(init.serverInfo().name()).isEqualTo("riffle");
            assertThat(client.listTools().tools()).hasSize(8);
            McpSchema.CallToolResult count = client.callTool(new McpSchema.CallToolRequest("query",
                    Map.of("sql", "SELECT count(*) AS n FROM " + path)));
            assertThat(((McpSchema.TextContent) count.content().get(0)).text()).contains("12", "(1 row)");
            McpSchema.CallToolResult all = client.callTool(new McpSchema.CallToolRequest("query",
                    Map.of("sql", "SELECT * FROM " + path)));
            assertThat(((McpSchema.TextContent) all.content().get(0)).text()).contains("(5 rows)",
                    "Cut at the row limit of 5: more rows follow.");
            McpSchema.CallToolResult write = client.callTool(new McpSchema.CallToolRequest("query",
                    Map.of("sql", "INSERT INTO " + path + " VALUES (99, 'x')")));
            assertThat(write.isError()).isTrue();
            assertThat(((McpSchema.TextContent) write.content().get(0)).text()).startsWith("[read_only] ");
            client.closeGracefully();
        }
    }
}
