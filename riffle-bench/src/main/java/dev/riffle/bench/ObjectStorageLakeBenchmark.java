package dev.riffle.bench;

import dev.riffle.core.Riffle;
import dev.riffle.core.RiffleTable;
import dev.riffle.lake.source.FlussPluginLakeSource;
import dev.riffle.lake.union.UnionRead;
import dev.riffle.local.LocalCluster;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * Issue 19's lake numbers: tiering and union reads with the Paimon warehouse on S3 (S3Proxy on
 * loopback, over jclouds' in-memory store) against the same on the local file system, in one run.
 * Two embedded clusters stay up side by side; each round writes a fresh table into each (in
 * alternating order, so drift in the machine falls on both), tiers it whole and union-reads it,
 * and every round's rates and ratios are printed before the medians.
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B -pl riffle-bench exec:exec -Dbench.class=ObjectStorageLakeBenchmark -Dbench.args="2000000 3"
 * (rows per round, default 5,000,000; rounds, default 3)
 * </pre>
 */
public final class ObjectStorageLakeBenchmark {
    private static final int BUCKETS = 4;
    private static final String S3_BUCKET = "bench-lake";

    private ObjectStorageLakeBenchmark() {}

    /** One store's cluster: where its lake lives, and the connection the rounds write through. */
    private record Store(String name, LocalCluster cluster, Connection connection) {}

    /** One round on one store. */
    private record Round(double tieringRowsPerSecond, double unionRowsPerSecond) {}

    public static void main(String[] args) throws Exception {
        ScanBenchArgs parsed = ScanBenchArgs.parse(args, "tiering,union");
        int rows = parsed.rows();
        int rounds = parsed.rounds();

        Path dataDir = Files.createTempDirectory("riffle-s3-bench");
        BlobStoreContext blobs = ContextBuilder.newBuilder("transient").build(BlobStoreContext.class);
        S3Proxy s3 = S3Proxy.builder().blobStore(blobs.getBlobStore()).endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, "bench", "bench-secret").build();
        try {
            blobs.getBlobStore().createContainerInLocation(null, S3_BUCKET);
            s3.start();
            try (LocalCluster local = LocalCluster.builder().dataDir(dataDir.resolve("local")).coordinatorPort(0).start();
                    LocalCluster onS3 = LocalCluster.builder().dataDir(dataDir.resolve("s3")).coordinatorPort(0)
                            .lakeOption("warehouse", "s3://" + S3_BUCKET + "/warehouse")
                            .lakeOption("s3.endpoint", "http://127.0.0.1:" + s3.getPort())
                            .lakeOption("s3.access-key", "bench").lakeOption("s3.secret-key", "bench-secret")
                            .lakeOption("s3.path.style.access", "true").start();
                    Connection localConnection = ConnectionFactory.createConnection(local.clientConfig());
                    Connection s3Connection = ConnectionFactory.createConnection(onS3.clientConfig())) {
                List<Store> stores = List.of(new Store("local file system", local, localConnection),
                        new Store("S3 (S3Proxy)", onS3, s3Connection));
                for (Store store : stores) {
                    try (Admin admin = store.connection().getAdmin()) {
                        admin.createDatabase("bench", DatabaseDescriptor.EMPTY, true).get();
                    }
                }
                System.out.printf(Locale.ROOT, "Lake on S3 vs local: %,d rows per round (5 columns, %d buckets), "
                        + "round -1 warms up%n", rows, BUCKETS);
                List<Double> tieringRatios = new ArrayList<>();
                List<Double> unionRatios = new ArrayList<>();
                List<List<Round>> byStore = List.of(new ArrayList<>(), new ArrayList<>());
                for (int round = -1; round < rounds; round++) {
                    Round[] results = new Round[2];
                    for (int i = 0; i < 2; i++) {
                        int which = (round + i + 2) % 2; // alternate which store goes first
                        results[which] = round(stores.get(which), TablePath.of("bench", "t" + (round + 1)), rows);
                    }
                    System.out.printf(Locale.ROOT, "  round %2d: tiering local %,10.0f  s3 %,10.0f rows/s (%.2fx);"
                            + " union read local %,10.0f  s3 %,10.0f rows/s (%.2fx)%n", round,
                            results[0].tieringRowsPerSecond(), results[1].tieringRowsPerSecond(),
                            results[1].tieringRowsPerSecond() / results[0].tieringRowsPerSecond(),
                            results[0].unionRowsPerSecond(), results[1].unionRowsPerSecond(),
                            results[1].unionRowsPerSecond() / results[0].unionRowsPerSecond());
                    if (round >= 0) {
                        byStore.get(0).add(results[0]);
                        byStore.get(1).add(results[1]);
                        tieringRatios.add(results[1].tieringRowsPerSecond() / results[0].tieringRowsPerSecond());
                        unionRatios.add(results[1].unionRowsPerSecond() / results[0].unionRowsPerSecond());
                    }
                }
                System.out.printf(Locale.ROOT, "%nMedians of %d rounds%n", rounds);
                for (int i = 0; i < 2; i++) {
                    System.out.printf(Locale.ROOT, "  %-18s tiering %,10.0f rows/s   union read %,10.0f rows/s%n",
                            stores.get(i).name(),
                            Median.of(byStore.get(i).stream().map(Round::tieringRowsPerSecond).toList()),
                            Median.of(byStore.get(i).stream().map(Round::unionRowsPerSecond).toList()));
                }
                System.out.printf(Locale.ROOT, "  S3 / local: tiering %.2fx, union read %.2fx (target >= 0.5x)%n",
                        Median.of(tieringRatios), Median.of(unionRatios));
            }
        } finally {
            s3.stop();
            blobs.close();
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Writes a fresh table, tiers all of it, and union-reads it (all from the lake, the log tail empty). */
    private static Round round(Store store, TablePath path, int rows) throws Exception {
        LakeBenchmark.create(store.connection(), path, BoundedReadBenchmark.SCHEMA, BUCKETS);
        LakeBenchmark.append(store.connection(), path, 0, rows);
        LakeBenchmark.TieringRun tiering = LakeBenchmark.tier(store.cluster(), path, rows);
        if (tiering.rows() < rows) {
            throw new IllegalStateException(store.name() + ": tiered " + tiering.rows() + " of " + rows + " rows");
        }
        long started = System.nanoTime();
        long read;
        try (Riffle riffle = Riffle.connect(store.cluster().bootstrapServers())) {
            RiffleTable table = riffle.table(path);
            var lake = FlussPluginLakeSource.create("paimon", store.cluster().lakeCatalogOptions(), path,
                    table.info().getRowType());
            read = LakeBenchmark.count(UnionRead.of(riffle, lake, table).createReader());
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        if (read != rows) {
            throw new IllegalStateException(store.name() + ": the union read gave " + read + " of " + rows + " rows");
        }
        return new Round(tiering.rowsPerSecond(), rows / seconds);
    }
}
