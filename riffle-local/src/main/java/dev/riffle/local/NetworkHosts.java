package dev.riffle.local;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several hosts on one machine: each host is a Linux network namespace with its own address on a
 * private /24, joined to the others by a bridge in this (the root) namespace, through which this
 * JVM reaches them at the bridge's address {@link #localAddress()}. A process started with
 * {@link #command} runs inside a host's namespace: it sees only that host's interface and
 * loopback, so whatever crosses between hosts crosses a network link that {@link #cut} takes down
 * (the host's end of the link, as an unplugged cable would) and {@link #restore} brings back.
 *
 * <p>Needs root and Debian's {@code iproute2} ({@code ip netns}, veth, bridge); {@link
 * #available()} says whether this machine has them. Everything this creates carries a prefix
 * unique to this JVM and is removed by {@link #close()} (or, should the JVM exit first, by a
 * shutdown hook), so two test JVMs do not collide.
 *
 * <pre>{@code
 * try (NetworkHosts hosts = NetworkHosts.create("coordinator", "tablet-server-0", "gateway-a")) {
 *     String gateway = hosts.address("gateway-a");          // e.g. 10.213.17.12
 *     Process p = new ProcessBuilder(hosts.command("gateway-a", List.of("java", "..."))).start();
 *     hosts.cut("tablet-server-0");                          // its link goes down
 *     hosts.restore("tablet-server-0");
 * }
 * }</pre>
 */
public final class NetworkHosts implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NetworkHosts.class);
    private static final Path IP = Path.of("/usr/sbin/ip");
    private static final int FIRST_HOST = 10;

    private final int subnet;
    private final String bridge;
    private final Map<String, Host> hosts;
    private final Thread shutdownHook = new Thread(this::removeAll, "network-hosts-cleanup");
    private boolean closed;

    /** One host: its namespace, the root-side end of its link, and its address. */
    private record Host(String namespace, String link, String address) {}

    private NetworkHosts(int subnet, Map<String, Host> hosts) {
        this.subnet = subnet;
        this.bridge = "rfbr" + subnet;
        this.hosts = hosts;
    }

    /** Whether this machine can make hosts: running as root, with {@code ip} from iproute2. */
    public static boolean available() {
        return Files.isExecutable(IP) && "root".equals(System.getProperty("user.name"));
    }

    /**
     * Creates one host per name (letters, digits and dashes), each with its own address, and the
     * bridge that joins them to this JVM.
     */
    public static NetworkHosts create(String... names) {
        if (!available()) {
            throw new LocalClusterException("Network hosts need root and " + IP + " (Debian's iproute2); this JVM runs"
                    + " as " + System.getProperty("user.name"));
        }
        if (names.length == 0 || names.length > 200) {
            throw new IllegalArgumentException("Between 1 and 200 hosts, got " + names.length);
        }
        int subnet = freeSubnet();
        Map<String, Host> hosts = new LinkedHashMap<>();
        for (String name : names) {
            requireNonNull(name, "a host name is null");
            if (!name.matches("[A-Za-z0-9-]{1,40}") || hosts.containsKey(name)) {
                throw new IllegalArgumentException("Host names are distinct letters, digits and dashes; got '" + name
                        + "'");
            }
            int index = hosts.size();
            hosts.put(name, new Host("rf" + subnet + "-" + name, "rv" + subnet + "h" + index,
                    "10.213." + subnet + "." + (FIRST_HOST + index)));
        }
        NetworkHosts created = new NetworkHosts(subnet, hosts);
        Runtime.getRuntime().addShutdownHook(created.shutdownHook);
        try {
            created.build();
        } catch (RuntimeException e) {
            created.close();
            throw e;
        }
        LOG.info("Network hosts on 10.213.{}.0/24 (this JVM at {}): {}", subnet, created.localAddress(),
                hosts.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue().address()).toList());
        return created;
    }

    /** The address of a host. */
    public String address(String host) {
        return host(host).address();
    }

    /** This JVM's address on the hosts' network (the bridge's): where servers run here are reached from the hosts. */
    public String localAddress() {
        return "10.213." + subnet + ".1";
    }

    /** The names of the hosts, in the order they were created. */
    public List<String> names() {
        return List.copyOf(hosts.keySet());
    }

    /** {@code command}, to be run inside the host's namespace (by {@code ip netns exec}, which then execs it). */
    public List<String> command(String host, List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of(IP.toString(), "netns", "exec", host(host).namespace()));
        wrapped.addAll(command);
        return wrapped;
    }

    /** Takes the host's link down: nothing reaches the host, nothing leaves it, its processes run on. */
    public void cut(String host) {
        ip("link", "set", host(host).link(), "down");
        LOG.info("Cut the network link of host {} ({})", host, address(host));
    }

    /** Brings a cut link back up. */
    public void restore(String host) {
        ip("link", "set", host(host).link(), "up");
        LOG.info("Restored the network link of host {} ({})", host, address(host));
    }

    /** Removes the hosts (their namespaces and links) and the bridge. Processes still running in them lose their network. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        removeAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down already; the hook does the same.
        }
    }

    private Host host(String name) {
        Host host = hosts.get(requireNonNull(name, "host is null"));
        if (host == null) {
            throw new IllegalArgumentException("No host '" + name + "'; the hosts are " + hosts.keySet());
        }
        return host;
    }

    private void build() {
        ip("link", "add", bridge, "type", "bridge");
        ip("addr", "add", localAddress() + "/24", "dev", bridge);
        ip("link", "set", bridge, "up");
        for (Host host : hosts.values()) {
            String inside = host.link() + "n";
            ip("netns", "add", host.namespace());
            ip("link", "add", host.link(), "type", "veth", "peer", "name", inside);
            ip("link", "set", host.link(), "master", bridge);
            ip("link", "set", host.link(), "up");
            ip("link", "set", inside, "netns", host.namespace());
            ip("-n", host.namespace(), "addr", "add", host.address() + "/24", "dev", inside);
            ip("-n", host.namespace(), "link", "set", inside, "up");
            ip("-n", host.namespace(), "link", "set", "lo", "up");
        }
    }

    private void removeAll() {
        for (Host host : hosts.values()) {
            // Deleting the namespace deletes its end of the link, and with it the pair.
            quietly("netns", "delete", host.namespace());
        }
        quietly("link", "delete", bridge);
    }

    /** A /24 that no interface of this machine uses yet, starting from one this JVM's pid suggests. */
    private static int freeSubnet() {
        String used = run(List.of(IP.toString(), "-o", "addr", "show"), true);
        int start = (int) (ProcessHandle.current().pid() % 250) + 1;
        for (int i = 0; i < 250; i++) {
            int candidate = (start + i) % 250 + 1;
            if (!used.contains("10.213." + candidate + ".") && !used.contains("rfbr" + candidate + ":")) {
                return candidate;
            }
        }
        throw new LocalClusterException("No free subnet in 10.213.0.0/16 for network hosts");
    }

    private static void ip(String... args) {
        List<String> command = new ArrayList<>(List.of(IP.toString()));
        command.addAll(List.of(args));
        run(command, true);
    }

    private static void quietly(String... args) {
        List<String> command = new ArrayList<>(List.of(IP.toString()));
        command.addAll(List.of(args));
        run(command, false);
    }

    private static String run(List<String> command, boolean check) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new LocalClusterException(String.join(" ", command) + " did not finish within 30 s");
            }
            if (check && process.exitValue() != 0) {
                throw new LocalClusterException(String.join(" ", command) + " failed (exit " + process.exitValue()
                        + "): " + output.strip());
            }
            return output;
        } catch (IOException e) {
            throw new LocalClusterException("Cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalClusterException("Interrupted while running " + String.join(" ", command));
        }
    }
}
