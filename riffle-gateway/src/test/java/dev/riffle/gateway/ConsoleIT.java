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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

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
    void sqlResultsShowTimestampsAsStoredToTheNanosecond(Api api, TestNames names) {
        TablePath times = createTable(api, names.table("times"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                + " {\"name\": \"ts9\", \"type\": \"TIMESTAMP(9)\"}, {\"name\": \"ts3\", \"type\": \"TIMESTAMP(3)\"},"
                + " {\"name\": \"ltz6\", \"type\": \"TIMESTAMP_LTZ(6)\"}]", ", \"buckets\": 1");
        Api.Response written = api.postJson(tableUrl(times) + "/rows", "[{\"id\": 1, \"ts9\": \"2024-06-01T12:30:00.123456789\","
                + " \"ts3\": \"2024-06-01T12:30:00.500\", \"ltz6\": \"1969-12-31T23:59:59.000001Z\"},"
                + " {\"id\": 2, \"ts9\": \"2024-06-01T12:30:00\", \"ts3\": null, \"ltz6\": \"2024-06-01T12:30:00.120Z\"}]");
        assertThat(written.status()).as(written.text()).isEqualTo(200);
        String query = "SELECT id, ts9, ts3, ltz6 FROM " + sqlName(times);
        JsonNode answer = api.postJson("/v1/sql", sqlBody(query)).json();

        browser.open(api.url() + "/#/sql");
        run(query, "Run");
        browser.await("both rows", 15, By.cssSelector("#sql-status[data-row-count='2']"));
        List<WebElement> shown = browser.driver().findElements(By.cssSelector("#sql-output tbody tr:not(.spacer)"));
        assertThat(shown).hasSize(2);
        for (int row = 0; row < 2; row++) {
            List<WebElement> cells = shown.get(row).findElements(By.tagName("td")); // #, id, ts9, ts3, ltz6
            JsonNode expected = answer.get("rows").get(row);
            // The grid shows each timestamp as the JSON API gives it: every stored digit, nothing invented.
            for (String column : List.of("ts9", "ts3", "ltz6")) {
                WebElement cell = cells.get(2 + List.of("ts9", "ts3", "ltz6").indexOf(column));
                if (expected.get(column).isNull()) {
                    assertThat(cell.getAttribute("class")).as("row %d %s", row, column).isEqualTo("null");
                } else {
                    assertThat(cell.getText()).as("row %d %s beside the API's %s", row, column, expected)
                            .isEqualTo(expected.get(column).asText());
                }
            }
        }
        assertThat(shown.get(0).getText()).contains("2024-06-01T12:30:00.123456789", "2024-06-01T12:30:00.500",
                "1969-12-31T23:59:59.000001Z");
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
    void tieringPageShowsTheLagTheApiGivesAndSeesItFallToZeroAfterTiering(Api api, LocalCluster cluster,
            Connection connection, TestNames names) throws Exception {
        TablePath lake = createTable(api, names.table("lake"), EVENTS, ", \"buckets\": 1, \"properties\": "
                + "{\"table.datalake.enabled\": \"true\", \"table.datalake.freshness\": \"1s\"}");
        TablePath plain = createTable(api, names.table("plain"), EVENTS, ", \"buckets\": 1");
        write(api, lake, 0, 4);

        // The API: every table, one database's, one table's; what is not there or never tiered says so.
        JsonNode all = api.get("/v1/tiering").json();
        assertThat(tieringOf(all, lake)).as("/v1/tiering lists %s: %s", lake, all).isNotNull();
        JsonNode database = api.get("/v1/tiering?database=" + lake.getDatabaseName()).json();
        assertThat(database.get("tables")).allSatisfy(table ->
                assertThat(table.get("database").asText()).isEqualTo(lake.getDatabaseName()));
        JsonNode one = api.get(tableUrl(lake) + "/tiering").json();
        assertThat(one.get("table").asText()).isEqualTo(lake.toString());
        assertThat(one.get("lag_records").asLong()).isEqualTo(4);
        assertThat(one.get("lake_snapshot_id").isNull()).isTrue();
        assertThat(one.get("buckets").get(0).get("latest").asLong()).isEqualTo(4);
        Api.Response notLake = api.get(tableUrl(plain) + "/tiering");
        assertThat(notLake.status()).as(notLake.text()).isEqualTo(400);
        assertThat(notLake.errorCode()).isEqualTo("not_datalake_enabled");
        assertThat(notLake.errorMessage()).contains(plain.toString(), "table.datalake.enabled");
        Api.Response noDatabase = api.get("/v1/tiering?database=no_such_db_" + names.table("x").getTableName());
        assertThat(noDatabase.status()).as(noDatabase.text()).isEqualTo(404);

        // The page: 4 records behind, then none once a tiering service has run.
        browser.open(api.url() + "/#/tiering");
        String row = "//div[@id='tiering']//a[text()='" + lake + "']/ancestor::tr";
        WebElement behind = browser.await("the datalake table 4 records behind", 30,
                By.xpath(row + "//span[@data-lag-records='4']"));
        assertThat(behind.findElement(By.xpath("ancestor::tr")).getText()).contains("none yet", "/4");
        browser.screenshot("tiering");
        UnionScanIT.tierUntilLakeHas(cluster, connection, lake, 4);
        WebElement caughtUp = browser.await("the lag falls to 0 after tiering", 30,
                By.xpath(row + "//span[@data-lag-records='0']"));
        assertThat(caughtUp.findElement(By.xpath("ancestor::tr")).getText()).doesNotContain("none yet").contains("4/4");
        assertThat(browser.driver().findElement(By.id("tiering-chart")).findElements(By.tagName("svg")))
                .as("the lag-over-time charts").extracting(chart -> chart.getAttribute("aria-label"))
                .satisfiesExactly(records -> assertThat(records).startsWith("Records behind per table"),
                        seconds -> assertThat(seconds).startsWith("Seconds behind per table"));
        browser.screenshot("tiering-caught-up");
        assertThat(api.get(tableUrl(lake) + "/tiering").json().get("lag_records").asLong()).isZero();
    }

    @Test
    void metricsPageShowsTheRequestsTheApiCounted(Api api) {
        assertThat(api.get("/v1/tiering").status()).isEqualTo(200);
        browser.open(api.url() + "/#/metrics");
        browser.await("the metrics cards", 15, By.cssSelector("#metrics .card"));
        List<WebElement> cards = browser.driver().findElements(By.cssSelector("#metrics .card"));
        assertThat(cards).hasSize(5);
        assertThat(browser.driver().findElement(By.id("metrics")).getText()).contains("GET /v1/tiering");
        browser.screenshot("metrics");
    }

    @Test
    void everyControlOnEveryPageIsLabelledAndReachedByTab(Api api, TestNames names) {
        TablePath users = createTable(api, names.table("users"), EVENTS, ", \"primary_key\": [\"id\"], \"buckets\": 1");
        write(api, users, 0, 3);

        browser.open(api.url() + "/#/");
        browser.await("the tables list", 15, By.cssSelector("a[data-table='" + users + "']"));
        assertKeyboardReachesEveryLabelledControl("the tables page");

        browser.open(api.url() + "/#/table/" + users.getDatabaseName() + "/" + users.getTableName());
        browser.await("the preview", 15, By.cssSelector("#preview[data-rows='3']"));
        browser.await("the lookup form", 15, By.cssSelector("form[aria-labelledby='lookup-heading']"));
        assertKeyboardReachesEveryLabelledControl("a primary-key table's page");

        browser.open(api.url() + "/#/sql");
        run("SELECT * FROM " + sqlName(users), "Run");
        browser.await("the results", 15, By.cssSelector("#sql-status[data-row-count='3']"));
        assertKeyboardReachesEveryLabelledControl("the SQL page with results");

        browser.open(api.url() + "/#/tiering");
        browser.await("the tiering page", 15, By.cssSelector("#tiering table, #tiering p:not(.muted)"));
        assertKeyboardReachesEveryLabelledControl("the tiering page");

        browser.open(api.url() + "/#/metrics");
        browser.await("the metrics cards", 15, By.cssSelector("#metrics .card"));
        assertKeyboardReachesEveryLabelledControl("the metrics page");
    }

    /**
     * What a keyboard and screen-reader user needs of a page: every visible control (link, button,
     * field, scrollable region) has an accessible name, and pressing Tab from the top of the page
     * reaches each of them.
     */
    @SuppressWarnings("unchecked")
    private static void assertKeyboardReachesEveryLabelledControl(String page) {
        List<String> unlabelled = (List<String>) browser.script("""
                const named = e => {
                  const aria = (e.getAttribute('aria-label') || '').trim();
                  if (aria) return aria;
                  const by = (e.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
                    .map(id => (document.getElementById(id) || {}).textContent || '').join(' ').trim();
                  if (by) return by;
                  if (e.id) {
                    const label = document.querySelector('label[for="' + CSS.escape(e.id) + '"]');
                    if (label && label.textContent.trim()) return label.textContent.trim();
                  }
                  const around = e.closest('label');
                  if (around && around.textContent.trim()) return around.textContent.trim();
                  if (!['INPUT', 'SELECT', 'TEXTAREA'].includes(e.tagName) && e.textContent.trim()) return e.textContent.trim();
                  return (e.getAttribute('title') || '').trim();
                };
                const controls = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
                  .filter(e => e.getClientRects().length > 0 && !e.disabled && e.getAttribute('tabindex') !== '-1');
                const unlabelled = [];
                controls.forEach((e, i) => {
                  e.setAttribute('data-kb-index', String(i));
                  e.setAttribute('data-kb-what', e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                    + ' "' + (e.textContent || e.value || '').trim().slice(0, 40) + '"');
                  if (!named(e)) unlabelled.push(e.getAttribute('data-kb-what'));
                });
                return unlabelled;""");
        assertThat(unlabelled).as("controls without an accessible name on %s", page).isEmpty();
        List<String> all = (List<String>) browser.script(
                "return [...document.querySelectorAll('[data-kb-index]')].map(e => e.getAttribute('data-kb-index'));");
        assertThat(all).as("controls on %s: at least the six links of the header", page)
                .hasSizeGreaterThanOrEqualTo(6);
        browser.script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);");
        Set<String> reached = new HashSet<>();
        Actions tab = new Actions(browser.driver());
        for (int i = 0; i < all.size() + 10 && !reached.containsAll(all); i++) {
            tab.sendKeys(Keys.TAB).perform();
            Object index = browser.script("return document.activeElement.getAttribute('data-kb-index');");
            if (index != null) {
                reached.add(index.toString());
            }
        }
        List<String> missed = (List<String>) browser.script("""
                return [...document.querySelectorAll('[data-kb-index]')]
                  .filter(e => !arguments[0].includes(e.getAttribute('data-kb-index')))
                  .map(e => e.getAttribute('data-kb-what'));""", List.copyOf(reached));
        assertThat(missed).as("controls on %s that Tab never reached (of %d; the page may have replaced a focused"
                + " control while refreshing)", page, all.size()).isEmpty();
    }

    private static JsonNode tieringOf(JsonNode tiering, TablePath table) {
        for (JsonNode entry : tiering.get("tables")) {
            if (entry.get("table").asText().equals(table.toString())) {
                return entry;
            }
        }
        return null;
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
