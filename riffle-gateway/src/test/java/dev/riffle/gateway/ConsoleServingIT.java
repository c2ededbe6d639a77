package dev.riffle.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.gateway.console.ConsoleMode;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.server.principal.Auth;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * How the gateway serves its console over HTTP, as a browser or a proxy sees it: the page and
 * files from the jar with their content types, validators and caching; the settings the page
 * reads; unknown files as the API's 404; {@code --console off}; {@code --auth basic}'s prompt.
 */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class ConsoleServingIT {
    private static final String ARROW_JS = "/console/vendor/apache-arrow-21.2.0/Arrow.es2015.min.js";

    @Test
    void pageAndFilesComeWithTheirContentTypesAndCaching(Api api) {
        Api.Response page = api.get("/");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).isEqualToIgnoringCase("text/html;charset=utf-8");
        assertThat(page.text()).contains("<title>Riffle console</title>", ARROW_JS, "/console/js/app.js");
        assertThat(page.header("Cache-Control")).isEqualTo("no-cache");
        assertThat(page.header("Content-Security-Policy")).contains("default-src 'self'");
        assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");
        String etag = page.header("ETag");
        assertThat(etag).matches("\"[0-9a-f]{32}\"");

        // The browser revalidates the page and gets a 304 while it is unchanged.
        Api.Response again = api.get("/", "If-None-Match", etag);
        assertThat(again.status()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        assertThat(again.header("ETag")).isEqualTo(etag);

        assertThat(api.get("/console/js/app.js").header("Content-Type")).startsWith("text/javascript");
        assertThat(api.get("/console/console.css").header("Content-Type")).startsWith("text/css");
        assertThat(api.get("/console/favicon.svg").header("Content-Type")).isEqualTo("image/svg+xml");

        // Vendored libraries live under a versioned path: cached for a year, never revalidated.
        Api.Response arrow = api.get(ARROW_JS);
        assertThat(arrow.status()).isEqualTo(200);
        assertThat(arrow.header("Content-Type")).startsWith("text/javascript");
        assertThat(arrow.header("Cache-Control")).isEqualTo("public, max-age=31536000, immutable");
        assertThat(arrow.body().length).isGreaterThan(100_000);
        assertThat(api.get("/console/vendor/apache-arrow-21.2.0/LICENSE.txt").text()).contains("Apache License");

        JsonNode settings = api.get("/console/settings.json").json();
        assertThat(settings.toString()).isEqualTo("{\"mode\":\"on\",\"auth\":\"none\"}");
    }

    @Test
    void unknownFilesAreTheApisNotFound(Api api) {
        for (String path : new String[] {"/console/nope.js", "/console/js/../../Gateway.class", "/console/%2e%2e/pom.xml",
            "/console/index.html", "/console/vendor/README.txt.md", "/index.html"}) {
            Api.Response response = api.get(path);
            assertThat(response.status()).as(path).isIn(400, 404);
            assertThat(response.header("Content-Type")).as(path).startsWith("application/json");
        }
        // The API is untouched: /openapi.json documents the routes, the console is not among them.
        JsonNode paths = api.get("/openapi.json").json().get("paths");
        assertThat(paths.has("/v1/tiering")).isTrue();
        assertThat(paths.has("/")).isFalse();
    }

    @Test
    void consoleOffLeavesTheRootAnUnknownRoute(LocalCluster cluster) throws Exception {
        try (Gateway off = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .console(ConsoleMode.OFF).start()) {
            Api api = new Api(off);
            assertThat(off.consoleUrl()).isEmpty();
            for (String path : new String[] {"/", "/console/js/app.js", "/console/settings.json"}) {
                Api.Response response = api.get(path);
                assertThat(response.status()).as(path).isEqualTo(404);
                assertThat(response.errorCode()).isEqualTo("route_not_found");
            }
            assertThat(api.get("/health").status()).isEqualTo(200);
        }
    }

    @Test
    void underBasicAuthThePageAsksForCredentialsOnce(LocalCluster cluster) throws Exception {
        // The page's files are not checked against Fluss (they reveal nothing): asking for them
        // makes the browser prompt on the first load, then send the credentials with every API call.
        try (Gateway basic = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .auth(Auth.BASIC).console(ConsoleMode.READ_ONLY).start()) {
            Api api = new Api(basic);
            Api.Response challenged = api.get("/");
            assertThat(challenged.status()).isEqualTo(401);
            assertThat(challenged.header("WWW-Authenticate")).isEqualTo("Basic realm=\"riffle\"");
            String credentials = "Basic " + Base64.getEncoder().encodeToString("alice:secret".getBytes());
            Api.Response page = api.get("/", "Authorization", credentials);
            assertThat(page.status()).isEqualTo(200);
            assertThat(api.get("/console/settings.json", "Authorization", credentials).json().toString())
                    .isEqualTo("{\"mode\":\"read-only\",\"auth\":\"basic\"}");
            assertThat(api.get("/console/js/app.js").status()).isEqualTo(401);
        }
    }
}
