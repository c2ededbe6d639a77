package dev.riffle.lake;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.options.ListContainerOptions;

/**
 * S3Proxy, a real S3 API server, on a loopback port over jclouds' in-memory store, with one bucket
 * and one access key: the object storage of the tests of a lake and of Fluss remote storage on S3.
 *
 * <p>The in-memory store, not the file-system one: the latter turns S3A's directory markers
 * ({@code db/}) into directories it then does not list, so Paimon would not find what it created.
 */
public final class S3ProxyServer implements AutoCloseable {
    public static final String ACCESS_KEY = "riffle";
    public static final String SECRET_KEY = "riffle-secret";

    private final String bucket;
    private final BlobStoreContext blobs;
    private final S3Proxy proxy;

    private S3ProxyServer(String bucket, BlobStoreContext blobs, S3Proxy proxy) {
        this.bucket = bucket;
        this.blobs = blobs;
        this.proxy = proxy;
    }

    public static S3ProxyServer start(String bucket) throws Exception {
        BlobStoreContext blobs = ContextBuilder.newBuilder("transient").build(BlobStoreContext.class);
        try {
            blobs.getBlobStore().createContainerInLocation(null, bucket);
            S3Proxy proxy = S3Proxy.builder().blobStore(blobs.getBlobStore()).endpoint(URI.create("http://127.0.0.1:0"))
                    .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
            proxy.start();
            return new S3ProxyServer(bucket, blobs, proxy);
        } catch (Exception | Error e) {
            blobs.close();
            throw e;
        }
    }

    public String endpoint() {
        return "http://127.0.0.1:" + proxy.getPort();
    }

    /** {@code s3://BUCKET/path}. */
    public String uri(String path) {
        return "s3://" + bucket + "/" + path;
    }

    /**
     * The options that Fluss's and Paimon's S3 file systems both read, without a prefix: Fluss
     * servers take them as they are, Fluss clients after {@code client.fs.}, Paimon after
     * {@code datalake.paimon.} on the servers.
     */
    public Map<String, String> options() {
        return Map.of("s3.endpoint", endpoint(), "s3.access-key", ACCESS_KEY, "s3.secret-key", SECRET_KEY,
                "s3.path.style.access", "true");
    }

    /** The names of the bucket's objects under {@code prefix}. */
    public List<String> objectsUnder(String prefix) {
        BlobStore store = blobs.getBlobStore();
        List<String> names = new ArrayList<>();
        for (StorageMetadata object : store.list(bucket, ListContainerOptions.Builder.prefix(prefix).recursive())) {
            names.add(object.getName());
        }
        return names;
    }

    @Override
    public void close() throws Exception {
        try {
            proxy.stop();
        } finally {
            blobs.close();
        }
    }
}
