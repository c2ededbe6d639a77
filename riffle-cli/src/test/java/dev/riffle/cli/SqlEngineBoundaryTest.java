package dev.riffle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.flight.FlightSqlServer;
import dev.riffle.gateway.Gateway;
import dev.riffle.mcp.tool.McpLimits;
import dev.riffle.pgwire.PgWireServer;
import dev.riffle.server.session.ServerLimits;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The servers and the command line use riffle-sql through its public packages only: the engine
 * ({@code engine}: {@code SqlEngine}, the shape and rows of a statement, inserts), what a statement
 * shares with its caller ({@code statement}: limits, the guard, the direct read, looked-up rows),
 * the PostgreSQL dialect's text and types ({@code dialect}), DDL syntax ({@code ddl}) and SQL type
 * names ({@code types}). The catalog, the planner, plans, execution, the parsers and the system
 * catalogs stay riffle-sql's to change. Read from the compiled classes with {@code jdeps}, so a
 * reference in code counts and one in a comment does not.
 */
class SqlEngineBoundaryTest {
    private static final Set<String> PUBLIC_PACKAGES = Set.of("engine", "statement", "dialect", "ddl", "types");
    private static final Pattern EDGE = Pattern.compile("^\\s+(dev\\.riffle\\.\\S+)\\s+->\\s+dev\\.riffle\\.sql\\.(\\w+)\\.(\\S+)\\s");

    @Test
    void noSurfaceReachesIntoTheEnginesInternals() throws Exception {
        List<Class<?>> surfaces = List.of(ServerLimits.class, Gateway.class, FlightSqlServer.class,
                PgWireServer.class, McpLimits.class, RiffleCli.class);
        Set<String> internal = new TreeSet<>();
        int seen = 0;
        for (Class<?> surface : surfaces) {
            Path classes = Path.of(surface.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (String line : jdeps(classes).split("\n")) {
                Matcher edge = EDGE.matcher(line);
                if (edge.find()) {
                    seen++;
                    if (!PUBLIC_PACKAGES.contains(edge.group(2))) {
                        internal.add(edge.group(1) + " -> dev.riffle.sql." + edge.group(2) + "." + edge.group(3));
                    }
                }
            }
        }

        assertThat(seen).as("references from the surfaces into riffle-sql").isPositive();
        assertThat(internal).as("references into riffle-sql's internal packages").isEmpty();
    }

    private static String jdeps(Path classes) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError(
                "this JDK has no jdeps"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:class", "-filter:none",
                classes.toString());
        assertThat(status).as("jdeps on %s: %s", classes, err).isZero();
        return out.toString();
    }
}
