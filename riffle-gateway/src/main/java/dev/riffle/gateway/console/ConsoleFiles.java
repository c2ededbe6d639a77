package dev.riffle.gateway.console;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The console's static files, read from the gateway jar (classpath resources under
 * {@code dev/riffle/gateway/console/}) once each and kept in memory with their content type, a
 * strong ETag and their caching policy. Nothing is read from disk or the network at run time, so
 * the console works offline and is exactly the version of the gateway that serves it.
 *
 * <pre>{@code
 * ConsoleFiles files = ConsoleFiles.fromClasspath();
 * files.find("index.html").ifPresent(file -> System.out.println(file.contentType()));
 * }</pre>
 */
public final class ConsoleFiles {
    static final String ROOT = "dev/riffle/gateway/console/";
    /** Third-party files live under a directory named with their version, so their URL changes when they do. */
    static final String VENDOR = "vendor/";
    static final String IMMUTABLE = "public, max-age=31536000, immutable";
    /** The console's own files keep their names across releases: the browser revalidates them (ETag, 304). */
    static final String REVALIDATE = "no-cache";

    /** Plain names only: letters, digits, dots, dashes and underscores, in directories; never {@code ..}. */
    private static final Pattern SAFE = Pattern.compile("(?:[A-Za-z0-9_-][A-Za-z0-9._-]*/)*[A-Za-z0-9_-][A-Za-z0-9._-]*");
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("html", "text/html; charset=utf-8"),
            Map.entry("js", "text/javascript; charset=utf-8"),
            Map.entry("mjs", "text/javascript; charset=utf-8"),
            Map.entry("css", "text/css; charset=utf-8"),
            Map.entry("json", "application/json"),
            Map.entry("map", "application/json"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("png", "image/png"),
            Map.entry("ico", "image/x-icon"),
            Map.entry("txt", "text/plain; charset=utf-8"));

    /** One file as served. */
    public record StaticFile(String path, String contentType, byte[] body, String etag, String cacheControl) {
        public StaticFile {
            requireNonNull(path, "path is null");
            requireNonNull(contentType, "contentType is null");
            requireNonNull(body, "body is null");
            requireNonNull(etag, "etag is null");
            requireNonNull(cacheControl, "cacheControl is null");
        }
    }

    private final ClassLoader loader;
    private final String root;
    /** Only files that exist are kept, so unknown paths cannot grow it. */
    private final Map<String, StaticFile> loaded = new ConcurrentHashMap<>();

    ConsoleFiles(ClassLoader loader, String root) {
        this.loader = requireNonNull(loader, "loader is null");
        this.root = requireNonNull(root, "root is null");
    }

    /** The files shipped in the gateway jar. */
    public static ConsoleFiles fromClasspath() {
        return new ConsoleFiles(ConsoleFiles.class.getClassLoader(), ROOT);
    }

    /**
     * The file at {@code path} (relative to the console's root, e.g. {@code js/app.js}); empty for
     * a path that is not a plain name, has no known content type, or names no file.
     */
    public Optional<StaticFile> find(String path) {
        requireNonNull(path, "path is null");
        StaticFile file = loaded.get(path);
        if (file != null) {
            return Optional.of(file);
        }
        if (!SAFE.matcher(path).matches()) {
            return Optional.empty();
        }
        Optional<String> type = contentType(path);
        if (type.isEmpty()) {
            return Optional.empty();
        }
        try (InputStream in = loader.getResourceAsStream(root + path)) {
            if (in == null) {
                return Optional.empty();
            }
            byte[] body = in.readAllBytes();
            StaticFile read = new StaticFile(path, type.get(), body, etag(body),
                    path.startsWith(VENDOR) ? IMMUTABLE : REVALIDATE);
            StaticFile previous = loaded.putIfAbsent(path, read);
            return Optional.of(previous == null ? read : previous);
        } catch (IOException e) {
            throw new UncheckedIOException("Reading the console file " + root + path, e);
        }
    }

    /** The content type of a file name, by its extension. */
    static Optional<String> contentType(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? Optional.empty() : Optional.ofNullable(TYPES.get(path.substring(dot + 1)));
    }

    /** A strong validator: the first 128 bits of the content's SHA-256, quoted as HTTP wants. */
    static String etag(byte[] body) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
            return "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
    }
}
