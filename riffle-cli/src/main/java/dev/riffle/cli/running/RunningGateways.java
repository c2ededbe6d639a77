package dev.riffle.cli.running;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the gateways running on this machine say they are, so that a one-shot command
 * ({@code riffle sql -e}, {@code riffle read}, {@code riffle tier --status}) can answer through
 * one that serves its cluster instead of starting a Fluss client and a SQL planner of its own.
 *
 * <p>One small file per running gateway in a directory only its user may read
 * ({@code ~/.riffle/run}; {@code RIFFLE_RUN_DIR} or the system property {@code riffle.run.dir}
 * name another): the process id, the bootstrap servers and the gateway's URL. A gateway removes
 * its file when it stops; a file whose process is gone is ignored and removed by whoever finds it.
 * Only gateways without authentication are published: a one-shot command has no credentials to
 * pass on.
 *
 * <pre>{@code
 * try (RunningGateways.Publication published = RunningGateways.atDefaultPlace().publish(bootstrap, gateway.url())) {
 *     ... // serve
 * }
 * }</pre>
 */
public final class RunningGateways {
    /** The system property that names the directory (before {@code RIFFLE_RUN_DIR}). */
    public static final String DIRECTORY_PROPERTY = "riffle.run.dir";
    private static final String DIRECTORY_VARIABLE = "RIFFLE_RUN_DIR";
    private static final String SUFFIX = ".gateway";
    private static final Logger LOG = LoggerFactory.getLogger(RunningGateways.class);

    private final Path directory;

    public RunningGateways(Path directory) {
        this.directory = requireNonNull(directory, "directory is null");
    }

    /** The directory the system property, the environment or the user's home says. */
    public static RunningGateways atDefaultPlace() {
        String property = System.getProperty(DIRECTORY_PROPERTY);
        String variable = System.getenv(DIRECTORY_VARIABLE);
        Path directory = property != null && !property.isBlank() ? Path.of(property)
                : variable != null && !variable.isBlank() ? Path.of(variable)
                : Path.of(System.getProperty("user.home"), ".riffle", "run");
        return new RunningGateways(directory);
    }

    /** Where the files are. */
    public Path directory() {
        return directory;
    }

    /** A published gateway: closing it removes its file. */
    public interface Publication extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Says that this process serves {@code bootstrapServers} at {@code url} until the answer is
     * closed. A gateway bound to every interface is published at the loopback address. Never
     * fails the gateway: a directory that cannot be written is logged, and the commands then
     * connect to the cluster themselves.
     */
    public Publication publish(String bootstrapServers, String url) {
        requireNonNull(bootstrapServers, "bootstrapServers is null");
        URI reachable = loopbackFor(URI.create(requireNonNull(url, "url is null")));
        long pid = ProcessHandle.current().pid();
        Path file = directory.resolve(pid + "-" + reachable.getPort() + SUFFIX);
        try {
            createPrivateDirectory();
            Properties record = new Properties();
            record.setProperty("pid", Long.toString(pid));
            record.setProperty("bootstrap.servers", bootstrapServers);
            record.setProperty("url", reachable.toString());
            Path partial = Files.createTempFile(directory, "." + pid, ".partial");
            try (Writer out = Files.newBufferedWriter(partial, UTF_8)) {
                record.store(out, "A Riffle gateway on this machine; removed when it stops");
            }
            move(partial, file);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn("Cannot say in {} that a gateway serves {} (one-shot commands will connect to the cluster "
                    + "themselves): {}", directory, bootstrapServers, e.toString());
            return () -> { };
        }
        return () -> {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                LOG.warn("Cannot remove {}: {}", file, e.toString());
            }
        };
    }

    /**
     * The newest gateway of a live process that serves {@code bootstrapServers} (the same
     * addresses in any order; {@code localhost} and {@code 127.0.0.1} alike).
     */
    public Optional<RunningGateway> find(String bootstrapServers) {
        requireNonNull(bootstrapServers, "bootstrapServers is null");
        if (!Files.isDirectory(directory)) {
            return Optional.empty();
        }
        String wanted = normalized(bootstrapServers);
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            return stream(files).sorted(Comparator.comparing(RunningGateways::modified).reversed())
                    .map(this::read).flatMap(Optional::stream)
                    .filter(gateway -> normalized(gateway.bootstrapServers()).equals(wanted))
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty(); // then the command connects itself, as it would without a gateway
        }
    }

    private Optional<RunningGateway> read(Path file) {
        Properties record = new Properties();
        try (Reader in = Files.newBufferedReader(file, UTF_8)) {
            record.load(in);
            RunningGateway gateway = new RunningGateway(Long.parseLong(record.getProperty("pid", "0")),
                    record.getProperty("bootstrap.servers", ""), URI.create(record.getProperty("url", "")));
            if (ProcessHandle.of(gateway.pid()).map(ProcessHandle::isAlive).orElse(false)) {
                return Optional.of(gateway);
            }
            Files.deleteIfExists(file); // its process is gone without removing it (killed)
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // half-written by hand or removed meanwhile: not a gateway to use
        }
    }

    private void createPrivateDirectory() throws IOException {
        if (Files.isDirectory(directory)) {
            return;
        }
        try {
            Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
        } catch (UnsupportedOperationException e) {
            Files.createDirectories(directory);
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static java.util.stream.Stream<Path> stream(DirectoryStream<Path> files) {
        List<Path> all = new java.util.ArrayList<>();
        files.forEach(all::add);
        return all.stream();
    }

    private static java.nio.file.attribute.FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return java.nio.file.attribute.FileTime.fromMillis(0);
        }
    }

    /** A gateway listening on every interface is reached on loopback from this machine. */
    private static URI loopbackFor(URI url) {
        String host = url.getHost();
        try {
            if (host != null && InetAddress.getByName(host).isAnyLocalAddress()) {
                return URI.create(url.getScheme() + "://127.0.0.1:" + url.getPort());
            }
        } catch (UnknownHostException e) {
            // a name this machine cannot resolve: published as given
        }
        return url;
    }

    /** {@code "localhost:9123, 127.0.0.1:9124"} and {@code "127.0.0.1:9124,127.0.0.1:9123"} alike. */
    static String normalized(String bootstrapServers) {
        return Arrays.stream(bootstrapServers.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .map(address -> address.toLowerCase(Locale.ROOT))
                .map(address -> address.startsWith("localhost:") ? "127.0.0.1" + address.substring("localhost".length())
                        : address)
                .sorted().collect(Collectors.joining(","));
    }
}
