package dev.riffle.core.fs;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.fs.FileSystem;
import org.apache.fluss.fs.FileSystemPlugin;
import org.apache.fluss.fs.PluginFileSystemWrapper;

/**
 * A Fluss file system scheme whose implementation lives in a plugin directory
 * ({@link FileSystemPluginDirectory}), found by Fluss's class-path lookup of file systems.
 *
 * <p>Why: Fluss's client initialises its file systems from the class path only, with the
 * connection's {@code client.fs.*} options, and Riffle reads remote log segments and KV snapshots
 * through them. Fluss's S3 plugin cannot sit on Riffle's class path (it bundles unrelocated Hadoop
 * 3, Guava and Jackson beside Paimon's Hadoop 2.8), so this class stands on the class path in its
 * place and hands each file system to the plugin, loaded apart. The options are Fluss's own: a
 * server reads {@code s3.endpoint}, {@code s3.access-key}, ...; a client the same keys after
 * {@code client.fs.} (see {@link #withClientOptionsUnprefixed}), for example:
 *
 * <pre>{@code
 * Configuration client = new Configuration();
 * client.setString("bootstrap.servers", "fluss-1:9123");
 * client.setString("client.fs.s3.endpoint", "http://minio:9000");
 * client.setString("client.fs.s3.access-key", "riffle");
 * client.setString("client.fs.s3.secret-key", "...");
 * client.setString("client.fs.s3.path.style.access", "true");
 * // java -Driffle.plugins.dir=plugins ... (plugins/s3/fluss-fs-s3-0.9.1-incubating.jar)
 * }</pre>
 */
public abstract class IsolatedFileSystemPlugin implements FileSystemPlugin {
    private static final String CLIENT_PREFIX = "client.fs.";

    private final String scheme;
    private final String pluginJar;

    protected IsolatedFileSystemPlugin(String scheme, String pluginJar) {
        this.scheme = requireNonNull(scheme, "scheme is null");
        this.pluginJar = requireNonNull(pluginJar, "pluginJar is null");
    }

    @Override
    public String getScheme() {
        return scheme;
    }

    @Override
    public FileSystem create(URI fsUri, Configuration configuration) throws IOException {
        Optional<Path> root = FileSystemPluginDirectory.configured();
        if (root.isEmpty()) {
            throw new IOException(scheme + ":// paths need Fluss's " + pluginJar + " plugin in a plugin directory ("
                    + "the system property " + FileSystemPluginDirectory.PROPERTY + " or the environment variable "
                    + FileSystemPluginDirectory.ENVIRONMENT + "; bin/riffle sets it), and neither is set");
        }
        FileSystemPluginDirectory directory = FileSystemPluginDirectory.of(root.get());
        FileSystemPlugin plugin = directory.plugin(scheme).orElseThrow(() -> new IOException(
                scheme + ":// paths need Fluss's " + pluginJar + " plugin, which the plugin directory "
                        + directory.root() + " does not hold (expected a sub-directory with its jar)"));
        // The wrapper runs each call with the plugin's class loader as the context one, as Hadoop expects.
        try {
            return PluginFileSystemWrapper.of(plugin).create(fsUri, withClientOptionsUnprefixed(configuration));
        } catch (IOException | RuntimeException e) {
            // Hadoop's S3A reports missing credentials as a runtime exception without saying where they go.
            throw new IOException("Cannot open " + fsUri + " with Fluss's " + pluginJar + " plugin: " + e.getMessage()
                    + "; a client takes the store's options under client.fs. (client.fs." + scheme + ".endpoint, client.fs."
                    + scheme + ".access-key, client.fs." + scheme + ".secret-key; riffle: --client-option)", e);
        }
    }

    /**
     * {@code configuration} with each {@code client.fs.KEY} also given as {@code KEY}, unless
     * {@code KEY} is set. Fluss's client hands its file systems its {@code client.fs.*} options with
     * the prefix kept, which no plugin reads ({@code s3.access-key} is what the S3 plugin looks for):
     * Fluss clients are meant to receive short-lived credentials from the servers instead, which
     * needs STS. Riffle's clients take the credentials they are given.
     */
    static Configuration withClientOptionsUnprefixed(Configuration configuration) {
        Map<String, String> options = new HashMap<>(configuration.toMap());
        configuration.toMap().forEach((key, value) -> {
            if (key.startsWith(CLIENT_PREFIX)) {
                options.putIfAbsent(key.substring(CLIENT_PREFIX.length()), value);
            }
        });
        return Configuration.fromMap(options);
    }

    /** {@code s3://}: Fluss's {@code fluss-fs-s3}. */
    public static final class S3 extends IsolatedFileSystemPlugin {
        public S3() {
            super("s3", "fluss-fs-s3");
        }
    }

    /** {@code s3a://}: Fluss's {@code fluss-fs-s3} too. */
    public static final class S3a extends IsolatedFileSystemPlugin {
        public S3a() {
            super("s3a", "fluss-fs-s3");
        }
    }
}
