package dev.riffle.gateway;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.util.TransferPair;

/** The shared gateway as tests call it: plain java.net.http requests, and helpers to read answers. */
public final class Api {
    public static final ObjectMapper JSON = new ObjectMapper();
    public static final String ARROW = "application/vnd.apache.arrow.stream";

    private final Gateway gateway;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    Api(Gateway gateway) {
        this.gateway = gateway;
    }

    public Gateway gateway() {
        return gateway;
    }

    public String url() {
        return gateway.url();
    }

    /** An answer: status, headers and body. */
    public record Response(int status, HttpHeaders headers, byte[] body) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("Not JSON (status " + status + "): " + text(), e);
            }
        }

        public String text() {
            return new String(body, UTF_8);
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }

        /** The error envelope's code (fails the test if this is not an error envelope). */
        public String errorCode() {
            JsonNode error = json().get("error");
            assertThat(error).as("error envelope in %s", text()).isNotNull();
            return error.get("code").asText();
        }

        public String errorMessage() {
            return json().get("error").get("message").asText();
        }

        /** The Arrow stream body as batches allocated from {@code allocator}; close them. */
        public List<VectorSchemaRoot> arrow(BufferAllocator allocator) {
            assertThat(header("Content-Type")).as(text()).startsWith(ARROW);
            List<VectorSchemaRoot> batches = new ArrayList<>();
            try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(body), allocator)) {
                while (reader.loadNextBatch()) {
                    VectorSchemaRoot source = reader.getVectorSchemaRoot();
                    VectorSchemaRoot copy = VectorSchemaRoot.create(source.getSchema(), allocator);
                    for (int i = 0; i < source.getFieldVectors().size(); i++) {
                        TransferPair pair = source.getVector(i).makeTransferPair(copy.getVector(i));
                        pair.transfer();
                    }
                    copy.setRowCount(source.getRowCount());
                    batches.add(copy);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return batches;
        }
    }

    public Response get(String path, String... headers) {
        return send(request(path, headers).GET());
    }

    public Response delete(String path, String... headers) {
        return send(request(path, headers).DELETE());
    }

    public Response postJson(String path, String json, String... headers) {
        return post(path, "application/json", json.getBytes(UTF_8), headers);
    }

    public Response post(String path, String contentType, byte[] body, String... headers) {
        HttpRequest.Builder request = request(path, headers).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request);
    }

    public Response deleteJson(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .method("DELETE", HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Any method, with a JSON body. */
    public Response send(String method, String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Waits until no request holds Arrow memory in the gateway (it is freed as a response ends). */
    public void assertNoArrowMemoryHeld() {
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(gateway.arrowAllocatedBytes()).isZero());
    }

    private HttpRequest.Builder request(String path, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.url() + path))
                .timeout(Duration.ofSeconds(120));
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return request;
    }

    private Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Response(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
