package dev.riffle.cli.tier;

import dev.riffle.cli.FlussClientOptions;
import dev.riffle.core.Riffle;
import dev.riffle.lake.config.LakeConfig;
import dev.riffle.lake.tiering.TieredTable;
import dev.riffle.lake.tiering.TieringService;
import dev.riffle.lake.tiering.TieringStatus;
import java.io.PrintWriter;
import java.time.format.DateTimeFormatter;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.fluss.config.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code riffle tier}: the tiering service on its own, against any Fluss cluster, until Ctrl-C; or
 * with {@code --status}, how far each datalake-enabled table's lake is behind its log.
 */
@Command(name = "tier", mixinStandardHelpOptions = true,
        description = "Tier datalake-enabled tables into their lake (Paimon), without Flink. Several of these"
                + " processes can share one cluster: the coordinator gives each table to one of them at a time.")
public final class TierCommand implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9123",
            description = "Fluss bootstrap servers (default: ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = "--warehouse", paramLabel = "URI",
            description = "The Paimon warehouse, when the cluster does not say (its servers set datalake.paimon.*).")
    String warehouse;

    @Mixin
    FlussClientOptions clientOptions = new FlussClientOptions();

    @Option(names = "--status", description = "Print each datalake-enabled table's tiered offsets and lag, then exit.")
    boolean status;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Configuration client = clientOptions.clientConfig(bootstrapServers);
        if (status) {
            Riffle riffle = Riffle.connect(client);
            try {
                printStatus(riffle, out);
                return 0;
            } finally {
                dev.riffle.cli.BackgroundClose.close(riffle, "the Fluss connection");
            }
        }
        try (Riffle riffle = Riffle.connect(client)) {
            LakeConfig lake = warehouse != null ? LakeConfig.paimonWarehouse(warehouse)
                    : LakeConfig.discover(riffle.connection().getAdmin()).orElseThrow(() -> new IllegalArgumentException(
                            "The cluster at " + bootstrapServers + " does not say where its lake is; pass --warehouse URI"));
            CountDownLatch stop = new CountDownLatch(1);
            dev.riffle.cli.ShutdownSignals.onStop(stop::countDown);
            try (TieringService tiering = TieringService.builder().clientConfig(client)
                    .lake(lake.format(), lake.options())
                    .onTiered(table -> report(out, table))
                    .start()) {
                out.println("Tiering into " + lake.format() + " " + lake.options().getOrDefault("warehouse", "")
                        + " for " + bootstrapServers + "; Ctrl-C stops.");
                out.flush();
                stop.await();
            }
            out.println("Stopped.");
            out.flush();
            return 0;
        }
    }

    private static void report(PrintWriter out, TieredTable table) {
        Map<String, Long> offsets = new TreeMap<>();
        table.tieredOffsets().forEach((bucket, offset) -> offsets.put(
                (bucket.getPartitionId() == null ? "" : "p" + bucket.getPartitionId() + "/") + bucket.getBucket(), offset));
        out.printf("%s  %s  lake snapshot %d  tiered offsets %s  (%d rows in %d rounds)%n",
                LocalTime.now(ZoneId.systemDefault()).format(DateTimeFormatter.ofPattern("HH:mm:ss")), table.table(),
                table.lakeSnapshotId().orElse(-1L), offsets, table.rows(), table.rounds());
        out.flush();
    }

    private static void printStatus(Riffle riffle, PrintWriter out) throws Exception {
        var lags = TieringStatus.of(riffle);
        if (lags.isEmpty()) {
            out.println("No datalake-enabled tables.");
            return;
        }
        out.printf("%-40s %10s %14s %12s  %s%n", "TABLE", "SNAPSHOT", "LAG RECORDS", "LAG SECONDS", "TIERED / LATEST OFFSETS");
        for (TieringStatus.TableLag lag : lags) {
            Map<String, String> offsets = new TreeMap<>();
            lag.latestOffsets().forEach((bucket, latest) -> offsets.put(bucket.toString(),
                    lag.tieredOffsets().getOrDefault(bucket, 0L) + "/" + latest));
            out.printf("%-40s %10s %14d %12d  %s%n", lag.table(), lag.lakeSnapshotId().map(String::valueOf).orElse("-"),
                    lag.lagRecords(), lag.lag().toSeconds(), offsets);
        }
        out.flush();
    }
}
