package dev.riffle.gateway.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The MCP SDK's own clients, over the gateway's {@code /mcp} and over a {@code riffle mcp}-like process. */
public final class McpClients {
    static final McpJsonMapper JSON = new JacksonMcpJsonMapper(new com.fasterxml.jackson.databind.ObjectMapper());

    private McpClients() {}

    /** A client of {@code gatewayUrl}/mcp, sending {@code headers} with every request. */
    public static McpSyncClient http(String gatewayUrl, Map<String, String> headers) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(gatewayUrl)
                .endpoint("/mcp")
                .jsonMapper(JSON)
                .customizeRequest(request -> headers.forEach(request::header))
                .build();
        return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
    }

    /** A client of a new process serving MCP over stdio, with these limits. */
    static McpSyncClient stdio(String bootstrapServers, int maxRows, int maxBytes, boolean allowWrites, Path dir)
            throws IOException {
        Path logback = dir.resolve("logback-stderr.xml");
        // stdout carries MCP's messages: the process logs to stderr only.
        Files.writeString(logback, """
                <configuration>
                  <appender name="ERR" class="ch.qos.logback.core.ConsoleAppender">
                    <target>System.err</target>
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n</pattern></encoder>
                  </appender>
                  <root level="WARN"><appender-ref ref="ERR"/></root>
                </configuration>""");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ServerParameters process = ServerParameters.builder(java)
                .args(List.of("--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx512m",
                        "-Dlogback.configurationFile=" + logback, "-cp", System.getProperty("java.class.path"),
                        McpStdioMain.class.getName(), bootstrapServers, Integer.toString(maxRows),
                        Integer.toString(maxBytes), Boolean.toString(allowWrites)))
                .build();
        StdioClientTransport transport = new StdioClientTransport(process, JSON);
        transport.setStdErrorHandler(line -> System.err.println("[mcp stdio] " + line));
        return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60)).build();
    }

    /** The text of a tool result. */
    public static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    public static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        return client.callTool(new McpSchema.CallToolRequest(tool, arguments));
    }
}
