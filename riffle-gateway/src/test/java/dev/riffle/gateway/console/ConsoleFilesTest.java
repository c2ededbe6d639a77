package dev.riffle.gateway.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The console's files as the jar holds them: found by plain names only, typed, validated, cached. */
class ConsoleFilesTest {
    private final ConsoleFiles files = ConsoleFiles.fromClasspath();

    @Test
    void everyFileThePageLoadsIsInTheJar() {
        String page = new String(files.find("index.html").orElseThrow().body(), java.nio.charset.StandardCharsets.UTF_8);
        java.util.regex.Matcher references = java.util.regex.Pattern.compile("(?:src|href)=\"/console/([^\"]+)\"").matcher(page);
        int found = 0;
        while (references.find()) {
            assertThat(files.find(references.group(1))).as(references.group(1)).isPresent();
            found++;
        }
        assertThat(found).isGreaterThanOrEqualTo(4);
        for (String module : new String[] {"app", "api", "dom", "settings", "tables", "table", "sql", "grid",
            "arrow-rows", "tiering", "metrics"}) {
            assertThat(files.find("js/" + module + ".js")).as(module).isPresent();
        }
    }

    @Test
    void contentTypesComeFromTheExtension() {
        assertThat(files.find("index.html").orElseThrow().contentType()).isEqualTo("text/html; charset=utf-8");
        assertThat(files.find("js/app.js").orElseThrow().contentType()).isEqualTo("text/javascript; charset=utf-8");
        assertThat(files.find("console.css").orElseThrow().contentType()).isEqualTo("text/css; charset=utf-8");
        assertThat(files.find("favicon.svg").orElseThrow().contentType()).isEqualTo("image/svg+xml");
        assertThat(ConsoleFiles.contentType("notes.md")).isEmpty();
    }

    @Test
    void ownFilesAreRevalidatedAndVendoredOnesImmutable() {
        ConsoleFiles.StaticFile app = files.find("js/app.js").orElseThrow();
        assertThat(app.cacheControl()).isEqualTo("no-cache");
        assertThat(app.etag()).matches("\"[0-9a-f]{32}\"").isEqualTo(ConsoleFiles.etag(app.body()));
        assertThat(files.find("vendor/apache-arrow-21.2.0/Arrow.es2015.min.js").orElseThrow().cacheControl())
                .isEqualTo("public, max-age=31536000, immutable");
    }

    @Test
    void onlyPlainNamesUnderTheConsoleRootAreServed() {
        for (String path : new String[] {"../Gateway.class", "js/../../Paths.class", "/etc/passwd", "js//app.js", ".hidden.js",
            "js/%2e%2e/app.js", "", "js/", "nope.js", "vendor/README.txt.md"}) {
            assertThat(files.find(path)).as(path).isEmpty();
        }
    }

    @Test
    void modesAreSpelledAsOnTheCommandLine() {
        assertThat(ConsoleMode.parse("read-only")).isEqualTo(ConsoleMode.READ_ONLY);
        assertThat(ConsoleMode.parse(" OFF ")).isEqualTo(ConsoleMode.OFF);
        assertThatThrownBy(() -> ConsoleMode.parse("readonly")).hasMessage(
                "The console mode must be one of on, read-only, off, got 'readonly'");
    }
}
