package dev.riffle.cli.tier;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.cli.option.FlussClientOptions;
import dev.riffle.cli.running.GatewayClient;
import dev.riffle.cli.running.RunningGateway;
import dev.riffle.cli.running.RunningGateways;
import dev.riffle.core.Riffle;
import dev.riffle.lake.config.LakeConfig;
import dev.riffle.lake.tiering.TieredTable;
import dev.riffle.lake.tiering.TieringService;
import dev.riffle.lake.tiering.TieringStatus;
import java.io.PrintWriter;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    @Option(names = "--direct",
            description = "With --status: ask the cluster from this command even when a running Riffle gateway on this"
                    + " machine serves it (by default the gateway answers, in a fraction of the time).")
    boolean direct;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Configuration client = clientOptions.clientConfig(bootstrapServers);
        if (status) {
            Optional<RunningGateway> gateway = direct || clientOptions.given() ? Optional.empty()
                    : RunningGateways.atDefaultPlace().find(bootstrapServers);
            if (gateway.isPresent()) {
                try {
                    print(statusFrom(new GatewayClient(gateway.get()).get("/v1/tiering")), out);
                    if (dev.riffle.cli.process.ClassArchiveRun.active()) {
                        rehearse(client);
                    }
                    return 0;
                } catch (GatewayClient.Unreachable e) {
                    // stopped without removing its record: ask the cluster from here
                }
            }
            Riffle riffle = Riffle.connect(client);
            try {
                print(statusFrom(TieringStatus.of(riffle)), out);
                return 0;
            } finally {
                dev.riffle.cli.process.BackgroundClose.close(riffle, "the Fluss connection");
            }
        }
        try (Riffle riffle = Riffle.connect(client)) {
            LakeConfig lake = warehouse != null ? LakeConfig.paimonWarehouse(warehouse)
                    : LakeConfig.discover(riffle.connection().getAdmin()).orElseThrow(() -> new IllegalArgumentException(
                            "The cluster at " + bootstrapServers + " does not say where its lake is; pass --warehouse URI"));
            CountDownLatch stop = new CountDownLatch(1);
            dev.riffle.cli.process.ShutdownSignals.onStop(stop::countDown);
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

    /** One table's line of {@code --status}: its lake snapshot, lag, and each bucket's tiered/latest offsets. */
    private record StatusLine(String table, Optional<Long> lakeSnapshotId, long lagRecords, long lagSeconds,
            Map<String, String> offsets) {}

    private static List<StatusLine> statusFrom(List<TieringStatus.TableLag> lags) {
        List<StatusLine> lines = new ArrayList<>();
        for (TieringStatus.TableLag lag : lags) {
            Map<String, String> offsets = new TreeMap<>();
            lag.latestOffsets().forEach((bucket, latest) -> offsets.put(bucket.toString(),
                    lag.tieredOffsets().getOrDefault(bucket, 0L) + "/" + latest));
            lines.add(new StatusLine(lag.table().toString(), lag.lakeSnapshotId(), lag.lagRecords(),
                    lag.lag().toSeconds(), offsets));
        }
        return lines;
    }

    /** The lines of a gateway's {@code GET /v1/tiering} (the same figures, as docs/http-api.md writes them). */
    private static List<StatusLine> statusFrom(JsonNode answer) {
        List<StatusLine> lines = new ArrayList<>();
        for (JsonNode table : answer.path("tables")) {
            Map<String, String> offsets = new TreeMap<>();
            for (JsonNode bucket : table.path("buckets")) {
                offsets.put(bucket.path("key").asText(), bucket.path("tiered").asLong(0) + "/"
                        + bucket.path("latest").asLong());
            }
            JsonNode snapshot = table.path("lake_snapshot_id");
            lines.add(new StatusLine(table.path("table").asText(),
                    snapshot.isNumber() ? Optional.of(snapshot.asLong()) : Optional.empty(),
                    table.path("lag_records").asLong(), (long) Math.floor(table.path("lag_seconds").asDouble()), offsets));
        }
        return lines;
    }

    private static void print(List<StatusLine> lines, PrintWriter out) {
        if (lines.isEmpty()) {
            out.println("No datalake-enabled tables.");
            out.flush();
            return;
        }
        out.printf("%-40s %10s %14s %12s  %s%n", "TABLE", "SNAPSHOT", "LAG RECORDS", "LAG SECONDS", "TIERED / LATEST OFFSETS");
        for (StatusLine line : lines) {
            out.printf("%-40s %10s %14d %12d  %s%n", line.table(), line.lakeSnapshotId().map(String::valueOf).orElse("-"),
                    line.lagRecords(), line.lagSeconds(), line.offsets());
        }
        out.flush();
    }

    /** Asks the cluster from here too, printing nothing: see {@link dev.riffle.cli.process.ClassArchiveRun}. */
    private static void rehearse(Configuration client) {
        try {
            Riffle riffle = Riffle.connect(client);
            try {
                TieringStatus.of(riffle);
            } finally {
                dev.riffle.cli.process.BackgroundClose.close(riffle, "the Fluss connection");
            }
        } catch (Exception e) {
            // only classes were wanted
        }
    }
}
