package dev.riffle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.read.ReadBuilder;
import dev.riffle.flight.FlightSqlServer;
import dev.riffle.gateway.Gateway;
import dev.riffle.lake.config.LakeConfig;
import dev.riffle.mcp.RiffleMcpServer;
import dev.riffle.pgwire.PgWireServer;
import dev.riffle.server.ServerRuntime;
import dev.riffle.sql.engine.SqlEngine;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The packages of every module depend one way: no two packages of a module reach each other,
 * however indirectly, and Fluss's RPC classes are used in one package.
 * Read from the compiled classes with {@code jdeps},
 * so a reference in code counts and one in a comment does not. When it fails,
 * {@code jdeps -verbose:class -filter:none MODULE/target/classes} names the classes behind each
 * edge of the cycle.
 */
class PackageLayeringTest {
    private static final Pattern RPC_USE = Pattern.compile("^\\s+(dev\\.riffle\\.\\S+)\\s+->\\s+org\\.apache\\.fluss\\.rpc\\.");
    private static final String TIERING_RPC = "dev.riffle.lake.tiering.TieringCoordinatorClient";
    private static final Pattern EDGE = Pattern.compile("^\\s+(dev\\.riffle\\.\\S+)\\s+->\\s+(dev\\.riffle\\.\\S+)\\s");

    @ParameterizedTest
    @ValueSource(strings = {"core", "lake", "sql", "server", "mcp", "gateway", "flight", "pgwire", "cli"})
    void noTwoPackagesOfAModuleDependOnEachOther(String module) throws Exception {
        Class<?> member = member(module);
        Map<String, Set<String>> edges = packageEdges(classesOf(member), "dev.riffle." + module);

        assertThat(edges).as("packages of riffle-%s", module).isNotEmpty();
        assertThat(cycles(edges)).as("package cycles of riffle-%s (package -> what it uses): %s", module, edges)
                .isEmpty();
    }

    /**
     * Fluss's RPC messages and gateways ({@code org.apache.fluss.rpc}) are used by riffle-core's
     * {@code rpc} package alone, and by the lake's one client of the coordinator's lake-snapshot
     * RPCs: what a Fluss version changes in its protocol is met in one place.
     */
    @ParameterizedTest
    @ValueSource(strings = {"core", "lake", "sql", "server", "mcp", "gateway", "flight", "pgwire", "cli"})
    void flussRpcIsUsedByTheRpcPackageAlone(String module) throws Exception {
        Class<?> member = member(module);
        Set<String> users = new TreeSet<>();
        for (String line : jdeps(classesOf(member), "-verbose:class").split("\n")) {
            Matcher edge = RPC_USE.matcher(line);
            if (edge.find()) {
                users.add(edge.group(1));
            }
        }
        assertThat(users).as("classes of riffle-%s that use org.apache.fluss.rpc", module)
                .allMatch(user -> user.startsWith("dev.riffle.core.rpc.")
                        || user.equals(TIERING_RPC) || user.startsWith(TIERING_RPC + "$"));
        if (module.equals("core") || module.equals("lake")) {
            assertThat(users).as("the RPC users this test fences (riffle-%s)", module).isNotEmpty();
        }
    }

    /** A class of riffle-{@code module}, which names the module's compiled classes. */
    private static Class<?> member(String module) {
        return switch (module) {
            case "core" -> ReadBuilder.class;
            case "lake" -> LakeConfig.class;
            case "sql" -> SqlEngine.class;
            case "server" -> ServerRuntime.class;
            case "mcp" -> RiffleMcpServer.class;
            case "gateway" -> Gateway.class;
            case "flight" -> FlightSqlServer.class;
            case "pgwire" -> PgWireServer.class;
            case "cli" -> RiffleCli.class;
            default -> throw new IllegalArgumentException("no module riffle-" + module);
        };
    }

    private static Path classesOf(Class<?> member) throws URISyntaxException {
        return Path.of(member.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** Each package of the module under {@code prefix}, and the module's other packages it uses. */
    private static Map<String, Set<String>> packageEdges(Path classes, String prefix) {
        Map<String, Set<String>> edges = new TreeMap<>();
        for (String line : jdeps(classes, "-verbose:package").split("\n")) {
            Matcher edge = EDGE.matcher(line);
            if (edge.find() && inModule(edge.group(1), prefix) && inModule(edge.group(2), prefix)) {
                edges.computeIfAbsent(edge.group(1), name -> new TreeSet<>());
                edges.computeIfAbsent(edge.group(2), name -> new TreeSet<>());
                if (!edge.group(1).equals(edge.group(2))) {
                    edges.get(edge.group(1)).add(edge.group(2));
                }
            }
        }
        return edges;
    }

    /** What {@code jdeps} prints for {@code classes} at {@code verbosity}, every dependency shown. */
    private static String jdeps(Path classes, String verbosity) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError(
                "this JDK has no jdeps"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = jdeps.run(new PrintWriter(out), new PrintWriter(err), verbosity, "-filter:none",
                classes.toString());
        assertThat(status).as("jdeps on %s: %s", classes, err).isZero();
        return out.toString();
    }

    private static boolean inModule(String pkg, String prefix) {
        return pkg.equals(prefix) || pkg.startsWith(prefix + ".");
    }

    /** The strongly connected components of more than one package (Tarjan's algorithm). */
    private static List<Set<String>> cycles(Map<String, Set<String>> edges) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> cycles = new ArrayList<>();
        for (String start : edges.keySet()) {
            if (!index.containsKey(start)) {
                visit(start, edges, index, low, stack, onStack, cycles);
            }
        }
        return cycles;
    }

    private static void visit(String pkg, Map<String, Set<String>> edges, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> cycles) {
        index.put(pkg, index.size());
        low.put(pkg, index.get(pkg));
        stack.push(pkg);
        onStack.add(pkg);
        for (String used : edges.get(pkg)) {
            if (!index.containsKey(used)) {
                visit(used, edges, index, low, stack, onStack, cycles);
                low.put(pkg, Math.min(low.get(pkg), low.get(used)));
            } else if (onStack.contains(used)) {
                low.put(pkg, Math.min(low.get(pkg), index.get(used)));
            }
        }
        if (low.get(pkg).equals(index.get(pkg))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                component.add(member);
            } while (!member.equals(pkg));
            if (component.size() > 1) {
                cycles.add(component);
            }
        }
    }
}
