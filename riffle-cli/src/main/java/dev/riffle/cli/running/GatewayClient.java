package dev.riffle.cli.running;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.riffle.core.reader.ArrowStreamTableReader;
import dev.riffle.core.reader.TableReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URLEncoder;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/**
 * What a one-shot command asks a {@link RunningGateway}: one SQL statement, one page of a scan,
 * a JSON document. Rows come as Arrow and are read as any other {@link TableReader}; an error
 * answer becomes a {@link GatewayFailure} with the gateway's code and message.
 *
 * <pre>{@code
 * GatewayClient gateway = new GatewayClient(running);
 * try (GatewayClient.SqlAnswer answer = gateway.sql("SELECT count(*) FROM shop.orders", allocator)) { ... }
 * }</pre>
 */
public final class GatewayClient {
    private static final String ARROW = "application/vnd.apache.arrow.stream";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A gateway on this machine answers a connection at once; one that does not is not there. */
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    private final URI url;

    public GatewayClient(RunningGateway gateway) {
        this.url = requireNonNull(gateway, "gateway is null").url();
    }

    /** The gateway could not be reached: nothing was sent, so the command may do the work itself. */
    public static final class Unreachable extends IOException {
        Unreachable(URI url, IOException cause) {
            super("No gateway answers at " + url + ": " + cause.getMessage(), cause);
        }
    }

    /** What one statement answered: rows, or how many rows it changed. */
    public sealed interface SqlAnswer extends AutoCloseable {
        @Override
        void close();

        /** Rows, as Arrow batches read from the answer. */
        record Rows(TableReader reader) implements SqlAnswer {
            @Override
            public void close() {
                reader.close();
            }
        }

        /** A statement that answers no rows (DDL, INSERT, DELETE): how many rows changed. */
        record Updated(long count) implements SqlAnswer {
            @Override
            public void close() {}
        }
    }

    /** {@code POST /v1/sql} of one statement; rows read from {@code allocator}. */
    public SqlAnswer sql(String sql, BufferAllocator allocator) throws IOException {
        HttpURLConnection answer = send("POST", "/v1/sql", "text/plain; charset=utf-8", sql.getBytes(UTF_8));
        if (isArrow(answer)) {
            return new SqlAnswer.Rows(ArrowStreamTableReader.open(answer.getInputStream(), allocator));
        }
        JsonNode body = json(answer);
        return new SqlAnswer.Updated(body.path("updateCount").asLong(0));
    }

    /** One answer of {@code POST .../scan}: its rows and the headers that say where it ended. */
    public record ScanAnswer(TableReader reader, Optional<String> nextOffsets, Optional<String> untilOffsets,
            boolean done) implements AutoCloseable {
        @Override
        public void close() {
            reader.close();
        }
    }

    /** {@code POST /v1/databases/DB/tables/TABLE/scan} with {@code body} (the scan's JSON); rows as Arrow. */
    public ScanAnswer scan(String database, String table, JsonNode body, BufferAllocator allocator) throws IOException {
        HttpURLConnection answer = send("POST", "/v1/databases/" + segment(database) + "/tables/" + segment(table)
                + "/scan", "application/json", JSON.writeValueAsBytes(body));
        if (!isArrow(answer)) {
            json(answer); // a 2xx in JSON would be a gateway that ignored Accept: say so rather than guess
            throw new IOException("The gateway at " + url + " answered a scan without Arrow rows");
        }
        return new ScanAnswer(ArrowStreamTableReader.open(answer.getInputStream(), allocator),
                Optional.ofNullable(answer.getHeaderField("Riffle-Next-Offsets")),
                Optional.ofNullable(answer.getHeaderField("Riffle-Until-Offsets")),
                Optional.ofNullable(answer.getHeaderField("Riffle-Scan-Done")).map(Boolean::parseBoolean).orElse(true));
    }

    /** {@code GET /v1/databases/DB/tables/TABLE}: the table's columns, keys and properties. */
    public JsonNode table(String database, String table) throws IOException {
        return get("/v1/databases/" + segment(database) + "/tables/" + segment(table));
    }

    /** {@code GET path} (with its query) as JSON. */
    public JsonNode get(String pathAndQuery) throws IOException {
        return json(send("GET", pathAndQuery, null, null));
    }

    /**
     * One request, its answer's status and headers read. {@link HttpURLConnection} rather than
     * {@code java.net.http}: a one-shot command pays for every class it loads, and the newer
     * client sets up TLS even for plain HTTP.
     */
    private HttpURLConnection send(String method, String pathAndQuery, String contentType, byte[] body)
            throws IOException {
        HttpURLConnection connection = (HttpURLConnection) url.resolve(pathAndQuery).toURL().openConnection();
        connection.setRequestMethod(method);
        connection.setConnectTimeout(CONNECT_TIMEOUT_MILLIS);
        connection.setRequestProperty("Accept", body == null ? "application/json" : ARROW);
        connection.setUseCaches(false);
        try {
            if (body != null) {
                connection.setDoOutput(true);
                connection.setRequestProperty("Content-Type", contentType);
                connection.setFixedLengthStreamingMode(body.length);
                connection.connect();
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(body);
                }
            } else {
                connection.connect();
            }
        } catch (ConnectException | SocketTimeoutException e) {
            throw new Unreachable(url, e);
        }
        connection.getResponseCode(); // reads the status line and headers
        return connection;
    }

    private static boolean isArrow(HttpURLConnection answer) throws IOException {
        String type = answer.getContentType();
        return answer.getResponseCode() / 100 == 2 && type != null && type.startsWith(ARROW);
    }

    /** The body of a JSON answer; an error answer's envelope thrown as a {@link GatewayFailure}. */
    private JsonNode json(HttpURLConnection answer) throws IOException {
        int status = answer.getResponseCode();
        JsonNode body;
        try (InputStream in = status / 100 == 2 ? answer.getInputStream() : answer.getErrorStream()) {
            byte[] bytes = in == null ? new byte[0] : in.readAllBytes();
            try {
                body = JSON.readTree(bytes);
            } catch (IOException e) {
                throw new IOException("The gateway at " + url + " answered " + status
                        + " with a body that is not JSON: " + new String(bytes, 0, Math.min(bytes.length, 200), UTF_8));
            }
        }
        if (status / 100 != 2) {
            JsonNode error = body == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance()
                    : body.path("error");
            throw new GatewayFailure(status, error.path("code").asText("http_" + status),
                    error.path("message").asText("The gateway answered " + status));
        }
        return body;
    }

    private static String segment(String name) {
        return URLEncoder.encode(name, UTF_8).replace("+", "%20");
    }
}
