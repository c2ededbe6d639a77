package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.gateway.console.ConsoleMode;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * The web console in a real browser (headless Chromium) against a real gateway over the embedded
 * cluster: what a user sees and clicks, checked against what the API answers. One browser for the
 * class; screenshots land in {@code target/console-screenshots/}.
 */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class ConsoleIT {
    private static final String EVENTS = "[{\"name\": \"id\", \"type\": \"BIGINT\"}, {\"name\": \"kind\", \"type\": \"STRING\"}]";
    private static final String ORDERS = "[{\"name\": \"id\", \"type\": \"INT\"}, {\"name\": \"amount\", \"type\": \"DECIMAL(10, 2)\"},"
            + " {\"name\": \"note\", \"type\": \"STRING\"}]";

    private static HeadlessChromium browser;
    private static Gateway readOnly;

    @BeforeAll
    static void start(LocalCluster cluster) {
        browser = HeadlessChromium.start();
        readOnly = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .console(ConsoleMode.READ_ONLY).start();
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            if (readOnly != null) {
                readOnly.close();
            }
        }
    }

    @Test
    void tablesListAndTablePageWithOffsetsThatAdvanceAfterAWrite(Api api, TestNames names) throws IOException {
        TablePath events = createTable(api, names.table("events"), EVENTS, ", \"buckets\": 2");
        write(api, events, 0, 3);

        long started = System.nanoTime();
        browser.open(api.url() + "/");
        String link = "a[data-table='" + events + "']";
        browser.await("the tables list names " + events, 15, By.cssSelector(link));
        long untilTablesMs = (System.nanoTime() - started) / 1_000_000;
        Object loadMs = browser.script("const n = performance.getEntriesByType('navigation')[0];"
                + " return Math.round(n.loadEventEnd - n.startTime);");
        String timing = "First load of " + api.url() + "/: load event after " + loadMs + " ms; tables listed after "
                + untilTablesMs + " ms (Selenium's navigation included)\n";
        Files.createDirectories(HeadlessChromium.SCREENSHOTS);
        Files.writeString(HeadlessChromium.SCREENSHOTS.resolve("first-load.txt"), timing);
        System.out.print(timing);
        WebElement row = browser.await("the table's details", 30,
                By.cssSelector("tr[data-table='" + events + "'][data-described]"));
        assertThat(row.getText()).contains("log", "2", "datalake off");
        browser.screenshot("tables");

        browser.driver().findElement(By.cssSelector(link)).click();
        browser.await("offsets of 3 rows", 15, By.cssSelector("#offsets[data-total-latest='3']"));
        String page = browser.driver().findElement(By.tagName("main")).getText();
        assertThat(page).contains("BIGINT", "STRING", "kind", "Buckets", "Not tiered into the lake yet.");
        browser.await("a preview of the 3 rows", 15, By.cssSelector("#preview[data-rows='3']"));

        write(api, events, 3, 5);
        browser.await("the offsets advance to 8 by themselves", 20, By.cssSelector("#offsets[data-total-latest='8']"));
        browser.await("the preview shows the 8 rows", 20, By.cssSelector("#preview[data-rows='8']"));
        assertThat(browser.driver().findElement(By.id("preview")).getText()).contains("event-7", "+A");
        browser.screenshot("table");
        assertThat(browser.severeLogs()).as("errors the page logged").isEmpty();
    }

    @Test
    void sqlEditorShowsTheRowsTheApiCountsThePlanAndTheServersError(Api api, TestNames names) throws IOException {
        TablePath orders = createTable(api, names.table("orders"), ORDERS, ", \"primary_key\": [\"id\"], \"buckets\": 2");
        int rows = 3_000;
        for (int from = 0; from < rows; from += 1_000) {
            StringBuilder body = new StringBuilder("[");
            for (int id = from; id < from + 1_000; id++) {
                body.append(id == from ? "" : ",").append("{\"id\": ").append(id).append(", \"amount\": ").append(id)
                        .append(".50, \"note\": \"n").append(id).append("\"}");
            }
            assertThat(api.postJson(tableUrl(orders) + "/rows", body.append("]").toString()).status()).isEqualTo(200);
        }
        String table = sqlName(orders);
        String query = "SELECT * FROM " + table;
        JsonNode counted = api.postJson("/v1/sql", sqlBody(query)).json();

        browser.open(api.url() + "/#/sql");
        run(query, "Run");
        browser.await("the row count", 30, By.cssSelector("#sql-status[data-row-count]"));
        assertThat(browser.driver().findElement(By.id("sql-status")).getAttribute("data-row-count"))
                .isEqualTo(counted.get("rowCount").asText()).isEqualTo(Integer.toString(rows));
        // Virtualized: a few dozen rows in the page, whatever the result's size; the last one appears on scrolling.
        long inPage = (Long) browser.script("return document.querySelectorAll('#sql-output tbody tr:not(.spacer)').length;");
        assertThat(inPage).isBetween(1L, 200L);
        browser.script("const g = document.querySelector('#sql-output .grid-wrap'); g.scrollTop = g.scrollHeight;");
        browser.await("the last row after scrolling", 10, By.cssSelector("#sql-output tr[aria-rowindex='" + (rows + 1) + "']"));
        browser.screenshot("sql-results");

        // 100,000 rows (a cross join of five 10-row VALUES lists) stream in and scroll by rendering only what is in view.
        String digits = "(VALUES 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)";
        String hundredThousand = "SELECT a.x + 10 * b.x + 100 * c.x + 1000 * d.x + 10000 * e.x AS n FROM " + digits
                + " AS a(x), " + digits + " AS b(x), " + digits + " AS c(x), " + digits + " AS d(x), " + digits + " AS e(x)";
        long sent = System.nanoTime();
        run(hundredThousand, "Run");
        browser.awaitTrue("100,000 rows", 60, "document.querySelector('#sql-status[data-row-count=\"100000\"]')");
        long shownMs = (System.nanoTime() - sent) / 1_000_000;
        Object scrollMs = browser.driver().executeAsyncScript("const done = arguments[arguments.length - 1];"
                + " const g = document.querySelector('#sql-output .grid-wrap'); const times = [];"
                + " const step = i => { if (i === 20) { done(Math.max(...times)); return; }"
                + "   const t = performance.now(); g.scrollTop = (i + 1) * g.scrollHeight / 21;"
                + "   requestAnimationFrame(() => requestAnimationFrame(() => { times.push(performance.now() - t); step(i + 1); })); };"
                + " step(0);");
        long inPageAfter = (Long) browser.script("return document.querySelectorAll('#sql-output tbody tr:not(.spacer)').length;");
        assertThat(inPageAfter).isBetween(1L, 200L);
        String timing = "100,000 rows: row count shown " + shownMs + " ms after Run; slowest of 20 scroll jumps to its next"
                + " painted frame: " + scrollMs + " ms; " + inPageAfter + " rows in the page\n";
        Files.createDirectories(HeadlessChromium.SCREENSHOTS);
        Files.writeString(HeadlessChromium.SCREENSHOTS.resolve("sql-100k.txt"), timing);
        System.out.print(timing);
        browser.screenshot("sql-100k");

        // Decimals keep their scale through Arrow in the browser.
        run("SELECT id, amount FROM " + table + " WHERE id = 17", "Run");
        browser.awaitTrue("the point query's row", 15, "document.querySelector('#sql-status[data-row-count=\"1\"]')");
        assertThat(browser.driver().findElement(By.cssSelector("#sql-output tbody tr")).getText()).contains("17", "17.50");

        run("SELECT * FROM " + table + " WHERE id = 17", "Explain");
        WebElement path = browser.await("the access path", 15, By.id("sql-access-path"));
        assertThat(path.getText()).isEqualTo("PointLookup");
        browser.screenshot("sql-explain");

        String bad = "SELECT no_such_column FROM " + table;
        Api.Response refused = api.postJson("/v1/sql", sqlBody(bad));
        assertThat(refused.status()).isEqualTo(400);
        run(bad, "Run");
        WebElement error = browser.await("the server's error", 15, By.cssSelector("#sql-output .error"));
        assertThat(error.getText()).contains(refused.errorMessage()).contains("sql_error");
        browser.screenshot("sql-error");
    }

    @Test
    void readOnlyConsoleHidesWritesAndRunsOnlyQueries(Api api, TestNames names) {
        TablePath orders = createTable(api, names.table("orders"), ORDERS, ", \"primary_key\": [\"id\"], \"buckets\": 1");
        assertThat(api.postJson(tableUrl(orders) + "/rows", "[{\"id\": 1, \"amount\": 2.50, \"note\": \"one\"}]").status())
                .isEqualTo(200);
        String tablePage = "/#/table/" + orders.getDatabaseName() + "/" + orders.getTableName();

        // The full console offers writes and DDL on the table page...
        browser.open(api.url() + tablePage);
        browser.await("the table page", 15, By.cssSelector("#offsets[data-total-latest='1']"));
        assertThat(buttons()).contains("Write rows", "Drop table\u2026", "Look up");

        // ... and its lookup form finds the row by key.
        browser.driver().findElement(By.id("lookup-id")).sendKeys("1", Keys.ENTER);
        WebElement found = browser.await("the looked-up row", 15, By.cssSelector("#lookup-result table"));
        assertThat(found.getText()).contains("2.50", "one");

        // The read-only console shows the same table without them.
        browser.open(readOnly.url() + tablePage);
        browser.await("the read-only table page", 15, By.cssSelector("#offsets[data-total-latest='1']"));
        assertThat(browser.driver().findElement(By.id("mode-badge")).getText()).isEqualTo("read-only");
        assertThat(buttons()).contains("Look up", "Query in the SQL editor").doesNotContain("Write rows", "Drop table\u2026");
        browser.screenshot("read-only-table");

        // Its SQL editor refuses a write without sending it.
        browser.open(readOnly.url() + "/#/sql");
        run("INSERT INTO " + sqlName(orders) + " VALUES (2, 1.00, 'two')", "Run");
        WebElement refused = browser.await("the refusal", 10, By.cssSelector("#sql-output .error"));
        assertThat(refused.getText().toLowerCase(Locale.ROOT)).contains("read-only");
        assertThat(api.postJson("/v1/sql", sqlBody("SELECT count(*) AS n FROM " + sqlName(orders))).json().get("rows")
                .get(0).elements().next().asInt()).isEqualTo(1);
        run("SELECT * FROM " + sqlName(orders), "Run");
        browser.awaitTrue("a query still runs", 15, "document.querySelector('#sql-status[data-row-count=\"1\"]')");
        browser.screenshot("read-only-sql");
    }

    @Test
    void tieringAndMetricsPagesShowWhatTheApiSays(Api api, TestNames names) {
        TablePath lake = createTable(api, names.table("lake"), EVENTS,
                ", \"buckets\": 1, \"properties\": {\"table.datalake.enabled\": \"true\"}");
        write(api, lake, 0, 4);
        JsonNode tiering = api.get("/v1/tiering").json();
        JsonNode mine = null;
        for (JsonNode table : tiering.get("tables")) {
            if (table.get("table").asText().equals(lake.toString())) {
                mine = table;
            }
        }
        assertThat(mine).as("/v1/tiering lists %s: %s", lake, tiering).isNotNull();
        assertThat(mine.get("buckets").get(0).get("latest").asLong()).isEqualTo(4);

        browser.open(api.url() + "/#/tiering");
        WebElement link = browser.await("the datalake table on the tiering page", 30,
                By.xpath("//div[@id='tiering']//a[text()='" + lake + "']"));
        assertThat(link.findElement(By.xpath("ancestor::tr")).getText()).contains("/4");
        browser.screenshot("tiering");

        browser.open(api.url() + "/#/metrics");
        browser.await("the metrics cards", 15, By.cssSelector("#metrics .card"));
        List<WebElement> cards = browser.driver().findElements(By.cssSelector("#metrics .card"));
        assertThat(cards).hasSize(5);
        assertThat(browser.driver().findElement(By.id("metrics")).getText()).contains("GET /v1/tiering");
        browser.screenshot("metrics");
    }

    /** The table as SQL names it: test table names have capitals, so they are quoted. */
    private static String sqlName(TablePath table) {
        return table.getDatabaseName() + ".\"" + table.getTableName() + "\"";
    }

    private static String sqlBody(String sql) {
        return "{\"sql\": " + Api.JSON.valueToTree(sql) + "}";
    }

    /** Types a statement into the editor and presses Run or Explain. */
    private static void run(String sql, String button) {
        WebElement editor = browser.await("the SQL editor", 15, By.id("sql-text"));
        editor.clear();
        editor.sendKeys(sql);
        browser.driver().findElement(By.id(button.equals("Run") ? "sql-run" : "sql-explain")).click();
    }

    private static List<String> buttons() {
        return browser.driver().findElements(By.cssSelector("main button")).stream().map(WebElement::getText).toList();
    }

    private static void write(Api api, TablePath table, int from, int count) {
        StringBuilder body = new StringBuilder("[");
        for (int id = from; id < from + count; id++) {
            body.append(id == from ? "" : ",").append("{\"id\": ").append(id).append(", \"kind\": \"event-").append(id)
                    .append("\"}");
        }
        Api.Response written = api.postJson(tableUrl(table) + "/rows", body.append("]").toString());
        assertThat(written.status()).as(written.text()).isEqualTo(200);
    }
}
