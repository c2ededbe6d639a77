package dev.riffle.core.fs;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.fluss.fs.FileSystemPlugin;
import org.apache.fluss.plugin.DefaultPluginManager;
import org.apache.fluss.plugin.DirectoryBasedPluginFinder;

/**
 * Fluss file system plugins ({@code fluss-fs-s3}, ...) laid out as Fluss lays them out, one
 * sub-directory per plugin ({@code plugins/s3/fluss-fs-s3-0.9.1-incubating.jar}), each loaded in a
 * class loader of its own.
 *
 * <p>The directory is the {@code riffle.plugins.dir} system property (which {@code bin/riffle}
 * sets to the plugins its build copied), else Fluss's own {@code FLUSS_PLUGINS_DIR}. Unlike Fluss's
 * default loader, Hadoop classes are taken from the plugin first: the plugins bundle Hadoop 3,
 * while Riffle's class path carries Hadoop 2.8 for Paimon, and a plugin that linked against the
 * wrong one would fail on its first call.
 */
final class FileSystemPluginDirectory {
    static final String PROPERTY = "riffle.plugins.dir";
    static final String ENVIRONMENT = "FLUSS_PLUGINS_DIR";

    /** What a plugin shares with Riffle: the JDK, Fluss's own API, and logging (one log for both). */
    private static final String[] PARENT_FIRST = {"java.", "javax.annotation.", "org.apache.fluss.", "org.slf4j",
        "org.apache.log4j", "org.apache.logging", "org.apache.commons.logging", "ch.qos.logback"};

    private static final ConcurrentMap<Path, FileSystemPluginDirectory> LOADED = new ConcurrentHashMap<>();

    private final Path root;
    private final List<FileSystemPlugin> plugins;

    private FileSystemPluginDirectory(Path root, List<FileSystemPlugin> plugins) {
        this.root = root;
        this.plugins = List.copyOf(plugins);
    }

    /** The configured directory, if one is named (it need not exist). */
    static Optional<Path> configured() {
        String property = System.getProperty(PROPERTY);
        if (property != null && !property.isBlank()) {
            return Optional.of(Path.of(property));
        }
        String environment = System.getenv(ENVIRONMENT);
        return environment == null || environment.isBlank() ? Optional.empty() : Optional.of(Path.of(environment));
    }

    /** The plugins under {@code root}, loaded once per process. */
    static FileSystemPluginDirectory of(Path root) throws IOException {
        requireNonNull(root, "root is null");
        Path normalized = root.toAbsolutePath().normalize();
        FileSystemPluginDirectory loaded = LOADED.get(normalized);
        if (loaded != null) {
            return loaded;
        }
        if (!Files.isDirectory(normalized)) {
            throw new IOException("The file system plugin directory " + normalized + " does not exist");
        }
        DefaultPluginManager manager = new DefaultPluginManager(
                new DirectoryBasedPluginFinder(normalized).findPlugins(), PARENT_FIRST);
        List<FileSystemPlugin> plugins = new ArrayList<>();
        for (Iterator<FileSystemPlugin> it = manager.load(FileSystemPlugin.class); it.hasNext(); ) {
            plugins.add(it.next());
        }
        FileSystemPluginDirectory directory = new FileSystemPluginDirectory(normalized, plugins);
        FileSystemPluginDirectory raced = LOADED.putIfAbsent(normalized, directory);
        return raced == null ? directory : raced;
    }

    Path root() {
        return root;
    }

    /** The plugin serving {@code scheme}, if this directory has one. */
    Optional<FileSystemPlugin> plugin(String scheme) {
        return plugins.stream().filter(plugin -> plugin.getScheme().equalsIgnoreCase(scheme)).findFirst();
    }
}
