package dev.riffle.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.junit.LocalClusterExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import net.hydromatic.sqllogictest.Main;
import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.TestStatistics;
import net.hydromatic.sqllogictest.executors.RiffleSltExecutor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A peer's SQL suite over the PostgreSQL port: SQLite's sqllogictest corpus as
 * {@code net.hydromatic:sql-logic-test} 0.3 ships it, run by its pgjdbc executor (statements,
 * queries, the result hashes it compares; the tables it lists from {@code pg_catalog.pg_tables}
 * dropped between files). {@code select1.test} (1,000 queries over CREATE TABLE with
 * {@code INTEGER}, multi-row INSERT, subqueries, CASE, ORDER BY ordinals) runs in every build; the
 * longer files run when named ({@code -Dslt.files=select3.test}, one per run: each takes minutes;
 * each file gets a schema of its own), and their pass rates are in docs/pgwire.md.
 */
@ExtendWith({LocalClusterExtension.class, PgServerExtension.class})
class SqlLogicTestIT {
    /** How many queries each file holds: every one of them must pass. */
    private static final java.util.Map<String, Integer> QUERIES = java.util.Map.of("select1.test", 1_000,
            "select2.test", 1_000, "select3.test", 3_320, "select4.test", 2_832, "select5.test", 732);

    @Test
    void selectFilesPassWhole(PgWireServer server) throws Exception {
        for (String file : System.getProperty("slt.files", "select1.test").split(",")) {
            String schema = "slt_" + file.strip().replaceAll("\\W", "_");
            try (Connection sql = PgJdbcIT.connect(server); Statement statement = sql.createStatement()) {
                statement.execute("CREATE DATABASE " + schema);
            }
            String url = "jdbc:postgresql://" + server.clientHost() + ":" + server.port() + "/riffle?currentSchema="
                    + schema;
            ByteArrayOutputStream report = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(report, true, StandardCharsets.UTF_8);
            OptionsParser options = new OptionsParser(false, out, out);
            options.registerExecutor("riffle", () -> new RiffleSltExecutor(options.getOptions(), url));
            long started = System.nanoTime();
            TestStatistics statistics = Main.execute(options, "-e", "riffle", file.strip());
            statistics.printStatistics(out);
            String printed = report.toString(StandardCharsets.UTF_8);
            System.out.printf("sqllogictest %s: %d passed, %d failed, %d ignored in %d s%n", file.strip(),
                    statistics.getPassedTestCount(), statistics.getFailedTestCount(), statistics.getIgnoredTestCount(),
                    java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
            assertThat(statistics.getTestFileCount()).as(printed).isEqualTo(1);
            assertThat(statistics.getParseFailureCount()).as(printed).isZero();
            assertThat(statistics.getFailedTestCount()).as(printed).isZero();
            assertThat(statistics.getPassedTestCount()).as(printed).isEqualTo(QUERIES.getOrDefault(file.strip(),
                    statistics.getPassedTestCount()));
            assertThat(statistics.getPassedTestCount()).as(printed).isPositive();
        }
    }
}
