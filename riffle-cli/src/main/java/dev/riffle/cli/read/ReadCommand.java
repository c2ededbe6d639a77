package dev.riffle.cli.read;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.cli.option.FlussClientOptions;
import dev.riffle.cli.running.GatewayClient;
import dev.riffle.cli.running.GatewayFailure;
import dev.riffle.cli.running.RunningGateway;
import dev.riffle.cli.running.RunningGateways;
import dev.riffle.core.Riffle;
import dev.riffle.core.RiffleTable;
import dev.riffle.core.exception.InvalidReadException;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.read.StoppingOffsets;
import dev.riffle.core.reader.TableReader;
import dev.riffle.lake.config.LakeConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.IllegalConfigurationException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code riffle read DB.TABLE}: one bounded read of a table's log (or changelog) from a start to a
 * stop, written as CSV, JSON lines or an Arrow IPC stream, with progress on stderr.
 *
 * <p>Problems with the command line itself are usage errors (exit 2) found before connecting;
 * what only the cluster can tell (no such table or column, an offset out of range) fails the
 * command (exit 1). Both print one line.
 */
@Command(name = "read", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Read a table once, from a start to a stop, and write its rows as CSV, JSON lines or Arrow.",
            "Progress goes to stderr; stdout carries only the rows."},
        footer = {
            "",
            // One paragraph per element: picocli wraps each to the terminal width.
            "TIMESTAMP: an ISO-8601 instant (2024-06-01T00:00:00Z), a local date-time or a date read as UTC"
                    + " (2024-06-01T00:00:00, 2024-06-01), or epoch milliseconds (1717200000000).",
            "Bucket offsets: BUCKET:OFFSET pairs (0:100,1:250); on partitioned tables PARTITION/BUCKET:OFFSET"
                    + " (2024-06-01/0:100).",
            "",
            "Examples:",
            "  riffle read shop.orders --columns id,amount --until 0:1000,1:1000 > orders.csv",
            "  riffle read shop.orders --from 2024-06-01 --format json --out orders.jsonl",
            "  riffle read shop.accounts --changelog --format arrow --out accounts.arrows"})
public final class ReadCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "DB.TABLE", description = "The table to read.")
    String table;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9123",
            description = "Fluss bootstrap servers (default: ${DEFAULT-VALUE}, where 'riffle local' listens).")
    String bootstrapServers;

    @Mixin
    FlussClientOptions clientOptions = new FlussClientOptions();

    @Option(names = "--from", paramLabel = "START", defaultValue = "earliest",
            converter = OffsetsArgument.StartConverter.class,
            description = {"Where to start in each bucket: earliest (default), a TIMESTAMP (the first record"
                    + " committed at or after it), or bucket offsets (buckets not listed start at the earliest offset)."})
    StartingOffsets from;

    @Option(names = "--until", paramLabel = "STOP", defaultValue = "latest",
            converter = OffsetsArgument.StopConverter.class,
            description = {"Where to stop in each bucket, exclusive: latest (default: everything committed when the"
                    + " read starts), a TIMESTAMP (records committed before it), or bucket offsets (only the buckets"
                    + " listed are read; an offset beyond a bucket's end waits for its rows)."})
    StoppingOffsets until;

    @Option(names = "--columns", paramLabel = "COLUMN", split = ",",
            description = "Only these table columns, in this order (default: all); --changelog adds its own"
                    + " after them.")
    List<String> columns;

    @Option(names = "--changelog",
            description = "Read the changelog: each row gets _change_type (+I, -U, +U, -D; +A on log tables),"
                    + " _log_offset and _commit_timestamp. A primary-key table read without it gives its current"
                    + " rows.")
    boolean changelog;

    @Option(names = "--source", paramLabel = "SOURCE", converter = Source.Converter.class,
            description = "union (the lake snapshot plus the Fluss log past it: the whole table), log (the Fluss log"
                    + " alone), lake (the lake snapshot alone) or current (a primary-key table's rows from Fluss alone:"
                    + " each bucket's KV snapshot and the changelog after it). Default: union for datalake-enabled"
                    + " tables; current for other primary-key tables, unless --changelog, --from or --until ask for"
                    + " the log; else log. union, lake and current read the current rows: no --from, --until or"
                    + " --changelog.")
    Source source;

    @Option(names = "--warehouse", paramLabel = "URI",
            description = "The Paimon warehouse of the cluster's lake, when the cluster does not say (it does when"
                    + " its servers set datalake.paimon.warehouse).")
    String warehouse;

    @Option(names = "--direct",
            description = "Read from the cluster in this command even when a running Riffle gateway on this machine"
                    + " serves it (by default that gateway answers, in a fraction of the time; a read of the current"
                    + " rows through it must end within the gateway's scan timeout).")
    boolean direct;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "csv", converter = OutputFormat.Converter.class,
            description = "csv (RFC 4180, with a header), json (one object per line) or arrow (Arrow IPC stream);"
                    + " default: ${DEFAULT-VALUE}.")
    OutputFormat format;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "-",
            description = "Where the rows go; - is stdout (default). A file is removed again if the read fails.")
    String out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Optional<List<String>> projection = checkArguments();
        boolean toStdout = out.equals("-");
        Terminal terminal = Terminal.detect();
        if (format.isBinary() && toStdout && terminal.stdout()) {
            throw new ParameterException(spec.commandLine(), "Refusing to write " + format
                    + " (binary) to the terminal; use --out FILE, or pipe stdout to a program that reads Arrow");
        }
        PrintWriter err = spec.commandLine().getErr();
        // With rows going to the same terminal, a redrawn line would tear through them.
        ProgressBar progressBar = new ProgressBar(err, terminal.stderr() && !(toStdout && terminal.stdout()),
                System::nanoTime);
        Riffle riffle = null;
        BufferAllocator own = null;
        TableReader opened = null;
        try {
            Optional<RunningGateway> gateway = direct || warehouse != null || clientOptions.given() ? Optional.empty()
                    : RunningGateways.atDefaultPlace().find(bootstrapServers);
            if (gateway.isPresent()) {
                own = new RootAllocator();
                try {
                    opened = openThroughGateway(new GatewayClient(gateway.get()), projection, own);
                    if (dev.riffle.cli.process.ClassArchiveRun.active()) {
                        rehearse(projection);
                    }
                } catch (GatewayClient.Unreachable e) {
                    // stopped without removing its record: read from the cluster here
                }
            }
            if (opened == null) {
                riffle = connect();
                opened = open(riffle, projection);
            }
            BufferAllocator allocator = riffle != null ? riffle.allocator() : own;
            try (TableReader reader = opened;
                    // Opened only now: a wrong table, column or offset leaves an existing file alone.
                    Output output = toStdout ? Output.stdout(spec.commandLine().getOut(), System.out)
                            : Output.file(Path.of(out));
                    RowWriter writer = format.open(output, reader.schema(), allocator)) {
                writer.start();
                boolean outputClosed = false;
                while (!outputClosed && reader.hasNext()) {
                    try (VectorSchemaRoot batch = reader.next().root()) { // closing the root frees the batch
                        writer.write(batch);
                    }
                    outputClosed = output.closedByReader();
                    progressBar.update(reader.progress());
                }
                if (!outputClosed) {
                    writer.finish();
                    output.complete();
                }
                progressBar.finish(reader.progress(), outputClosed);
                return 0;
            }
        } catch (Exception e) {
            progressBar.clear();
            throw e;
        } finally {
            if (riffle != null) {
                dev.riffle.cli.process.BackgroundClose.close(riffle, "the Fluss connection");
            }
            if (own != null) {
                own.close(); // after the reader, which closed above with every batch it handed out
            }
        }
    }

    /** The projection, trimmed; usage errors for what is wrong whatever the cluster holds. */
    private Optional<List<String>> checkArguments() {
        // Checked here as well as by Riffle so that a malformed name is a usage error, found before connecting.
        int dot = table.indexOf('.');
        if (dot <= 0 || dot == table.length() - 1 || table.indexOf('.', dot + 1) >= 0) {
            throw new ParameterException(spec.commandLine(), "Table '" + table + "' must be DATABASE.TABLE, e.g. shop.orders");
        }
        if (source != null && source != Source.LOG && isRange()) {
            throw new ParameterException(spec.commandLine(), "--source " + source.name().toLowerCase(Locale.ROOT)
                    + " reads the table's current rows: it takes no --from, --until or --changelog (use --source log)");
        }
        if (columns == null) {
            return Optional.empty();
        }
        List<String> names = new ArrayList<>();
        for (String column : columns) {
            String name = column.strip();
            if (name.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--columns has an empty column name in '"
                        + String.join(",", columns) + "'");
            }
            names.add(name);
        }
        return Optional.of(names);
    }

    /**
     * Where the read takes its rows from: --source, or the default for the table (union for a
     * datalake-enabled table, current for another primary-key table, else the log), and the
     * combinations that cannot be read, refused alike whoever answers the read.
     */
    private Source choose(boolean datalake, List<String> primaryKey) {
        boolean range = isRange();
        Source chosen = source != null ? source : datalake && !range ? Source.UNION
                : !primaryKey.isEmpty() && !range ? Source.CURRENT : Source.LOG;
        if (chosen == Source.LOG) {
            if (!changelog && !primaryKey.isEmpty()) {
                throw new InvalidReadException("Table " + table + " has a primary key " + primaryKey
                        + ": a range of its log is a changelog of upserts and"
                        + " deletes; read it with --changelog, or without --from, --until and --source log for its"
                        + " current rows");
            }
            return chosen;
        }
        if (chosen == Source.CURRENT && primaryKey.isEmpty()) {
            throw new InvalidReadException("--source current reads a primary-key table's rows by key; " + table
                    + " is a log table: read it with --source log");
        }
        if ((chosen == Source.UNION || chosen == Source.LAKE) && !datalake) {
            throw new InvalidReadException("Table " + table + " is not datalake-enabled, so it has no lake side;"
                    + " read it with --source log");
        }
        return chosen;
    }

    private boolean isRange() {
        return changelog || !(from instanceof StartingOffsets.Earliest) || !(until instanceof StoppingOffsets.Latest);
    }

    /**
     * The read, through the one read façade: the log (or changelog) between --from and --until, or
     * the table's current rows for union, lake and current.
     */
    private TableReader open(Riffle riffle, Optional<List<String>> projection) {
        RiffleTable riffleTable = riffle.table(table);
        Source chosen = choose(riffleTable.info().getTableConfig().isDataLakeEnabled(),
                riffleTable.info().getPrimaryKeys());
        ReadBuilder read = riffleTable.read();
        if (projection.isPresent()) {
            read = read.columns(projection.get());
        }
        return switch (chosen) {
            case LOG -> (changelog ? read.changelog() : read.log()).from(from).until(until).createReader();
            case CURRENT -> read.withoutLake().createReader();
            case LAKE -> read.lake().createReader();
            case UNION -> read.createReader();
        };
    }

    /** The same read answered by a running gateway ({@code POST .../scan}, docs/http-api.md), rows as Arrow. */
    private TableReader openThroughGateway(GatewayClient gateway, Optional<List<String>> projection,
            BufferAllocator allocator) throws java.io.IOException {
        String database = table.substring(0, table.indexOf('.'));
        String name = table.substring(table.indexOf('.') + 1);
        if (source != null || (isRange() && !changelog)) {
            // What this command refuses it refuses in its own words (the gateway's speak of JSON fields);
            // the plain read of a table needs no such check, nor the round trip.
            com.fasterxml.jackson.databind.JsonNode info;
            try {
                info = gateway.table(database, name);
            } catch (GatewayFailure e) {
                throw new InvalidReadException(e.getMessage());
            }
            List<String> primaryKey = new ArrayList<>();
            info.path("primary_key").forEach(column -> primaryKey.add(column.asText()));
            choose(info.path("properties").path("table.datalake.enabled").asText("false").equalsIgnoreCase("true"),
                    primaryKey);
        }
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        // Without --source the gateway picks it as choose() does; it refuses what choose() refuses.
        if (source != null) {
            body.put("source", source.name().toLowerCase(Locale.ROOT));
        }
        projection.ifPresent(columns -> columns.forEach(body.putArray("columns")::add));
        if (changelog) {
            body.put("changelog", true);
        }
        if (from instanceof StartingOffsets.AtTimestamp at) {
            body.putObject("from").put("timestamp", at.epochMillis());
        } else if (from instanceof StartingOffsets.Explicit explicit) {
            ObjectNode offsets = body.putObject("from").putObject("offsets");
            explicit.offsets().forEach((bucket, offset) -> offsets.put(bucket.toString(), offset));
        }
        if (until instanceof StoppingOffsets.AtTimestamp at) {
            body.putObject("until").put("timestamp", at.epochMillis());
        } else if (until instanceof StoppingOffsets.Explicit explicit) {
            ObjectNode offsets = body.putObject("until").putObject("offsets");
            explicit.offsets().forEach((bucket, offset) -> offsets.put(bucket.toString(), offset));
        }
        try {
            return GatewayScanReader.open(gateway, database, name, body, isRange() || source == Source.LOG, allocator);
        } catch (GatewayFailure e) {
            throw new InvalidReadException(e.getMessage());
        }
    }

    /** Opens the same read from the cluster here and closes it unread: see {@link dev.riffle.cli.process.ClassArchiveRun}. */
    private void rehearse(Optional<List<String>> projection) {
        try {
            Riffle riffle = connect();
            try (TableReader unread = open(riffle, projection)) {
                unread.schema();
            } finally {
                dev.riffle.cli.process.BackgroundClose.close(riffle, "the Fluss connection");
            }
        } catch (RuntimeException e) {
            // only classes were wanted
        }
    }

    private Riffle connect() {
        try {
            Configuration conf = new Configuration();
            conf.setString("bootstrap.servers", bootstrapServers);
            if (warehouse != null) {
                // The client's lake settings win over what the cluster says (LakeConfig.of).
                LakeConfig.paimonWarehouse(warehouse).asClientSettings().forEach(conf::setString);
            }
            return Riffle.connect(clientOptions.applyTo(conf));
        } catch (IllegalConfigurationException e) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--bootstrap-servers': "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            // Fluss's message spans lines and names its own config key; say what the user can do.
            throw new IllegalStateException("Cannot connect to Fluss at " + bootstrapServers
                    + "; is it running? ('riffle local' starts one at 127.0.0.1:9123)", e);
        }
    }
}
