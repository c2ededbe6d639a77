package dev.riffle.gateway.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Parsing the Basic header, and the Javalin lifecycle that returning a principal's connection relies on. */
class BasicAuthTest {

    @Test
    void parsesUserAndPassword() {
        dev.riffle.server.principal.Credentials credentials = BasicAuth.parse("Basic " + b64("alice:pa:ss wörd"));
        assertThat(credentials.user()).isEqualTo("alice");
        assertThat(credentials.password()).isEqualTo("pa:ss wörd");
        assertThat(credentials.toString()).doesNotContain("pa:ss");
        assertThat(BasicAuth.parse("basic  " + b64("bob:")).password()).isEmpty();
    }

    @Test
    void missingOrMalformedHeadersAre401() {
        for (String header : new String[] {null, "", "Basic", "Bearer abc", "Basic ???", "Basic " + b64("nocolon"),
                "Basic " + b64(":password")}) {
            assertThatThrownBy(() -> BasicAuth.parse(header)).as(String.valueOf(header))
                    .isInstanceOfSatisfying(ApiException.class, e -> {
                        assertThat(e.status()).isEqualTo(401);
                        assertThat(e.code()).isEqualTo("unauthenticated");
                    });
        }
    }

    /** BasicAuth hands a connection back in an after-handler: it must run when the endpoint failed too. */
    @Test
    void afterHandlersRunWhenTheEndpointFails() throws Exception {
        AtomicInteger after = new AtomicInteger();
        Javalin app = Javalin.create(config -> config.showJavalinBanner = false)
                .before("/v1/*", ctx -> { })
                .after("/v1/*", ctx -> after.incrementAndGet())
                .get("/v1/fails", ctx -> {
                    throw new ApiException(403, "forbidden", "no");
                })
                .exception(Exception.class, (e, ctx) -> ctx.status(403))
                .start("127.0.0.1", 0);
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/v1/fails")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(403);
            assertThat(after.get()).isEqualTo(1);
        } finally {
            app.stop();
        }
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(UTF_8));
    }
}
