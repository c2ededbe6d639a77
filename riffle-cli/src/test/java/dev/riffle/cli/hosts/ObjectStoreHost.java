package dev.riffle.cli.hosts;

import static org.awaitility.Awaitility.await;

import dev.riffle.local.NetworkHosts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * An object store on a host of its own: S3Proxy (a real S3 API server, over jclouds' in-memory
 * store, one bucket) as a JVM on one of the {@link NetworkHosts}; {@link #main} is that JVM.
 */
final class ObjectStoreHost implements AutoCloseable {
    static final int PORT = 9000;
    static final String BUCKET = "riffle";
    static final String ACCESS_KEY = "riffle";
    static final String SECRET_KEY = "riffle-secret";

    private final Process process;
    private final String endpoint;

    private ObjectStoreHost(Process process, String endpoint) {
        this.process = process;
        this.endpoint = endpoint;
    }

    /** Starts S3Proxy on {@code host}, port 9000; returns once it accepts connections. */
    static ObjectStoreHost start(NetworkHosts hosts, String host, Path dataDir) throws IOException {
        String address = hosts.address(host);
        List<String> java = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), ObjectStoreHost.class.getName(),
                address, Integer.toString(PORT));
        Path log = Files.createDirectories(dataDir.resolve("logs")).resolve(host + ".log");
        Process process = new ProcessBuilder(hosts.command(host, java)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        ObjectStoreHost store = new ObjectStoreHost(process, "http://" + address + ":" + PORT);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .failFast("S3Proxy on " + host + " exited; see " + log, () -> !process.isAlive())
                .until(() -> accepts(address));
        return store;
    }

    String endpoint() {
        return endpoint;
    }

    /** {@code s3://riffle/path}. */
    static String uri(String path) {
        return "s3://" + BUCKET + "/" + path;
    }

    /** The S3 options Fluss's and Paimon's S3 file systems both read (no prefix). */
    Map<String, String> options() {
        return Map.of("s3.endpoint", endpoint, "s3.access-key", ACCESS_KEY, "s3.secret-key", SECRET_KEY,
                "s3.path.style.access", "true");
    }

    private static boolean accepts(String address) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, PORT), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() throws InterruptedException {
        RiffleProcess.stop(process);
    }

    /** The object store's JVM: {@code ObjectStoreHost ADDRESS PORT}; runs until killed. */
    public static void main(String[] args) throws Exception {
        BlobStoreContext blobs = ContextBuilder.newBuilder("transient").build(BlobStoreContext.class);
        blobs.getBlobStore().createContainerInLocation(null, BUCKET);
        S3Proxy proxy = S3Proxy.builder().blobStore(blobs.getBlobStore())
                .endpoint(URI.create("http://" + args[0] + ":" + args[1]))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
        proxy.start();
        System.out.println("S3Proxy serves s3://" + BUCKET + " at " + args[0] + ":" + args[1]);
        Thread.currentThread().join();
    }
}
