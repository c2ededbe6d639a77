package dev.riffle.cli.read;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.cli.running.GatewayClient;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.reader.TableReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;

/**
 * {@code riffle read} answered by a running gateway ({@code POST .../scan}, rows as Arrow), read as
 * one {@link TableReader}. A range of the log comes in pages of at most {@link #PAGE_ROWS} rows,
 * each asked from where the last one ended up to the stop offsets the first one fixed, so no
 * request runs long and every row comes once; the current rows of a table (union, lake, current)
 * come in one answer, as the gateway gives them.
 *
 * <pre>{@code
 * try (TableReader rows = GatewayScanReader.open(gateway, "shop", "orders", body, true, allocator)) { ... }
 * }</pre>
 */
final class GatewayScanReader implements TableReader {
    /** The most rows one page of a log range asks for. */
    static final long PAGE_ROWS = 65_536;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final GatewayClient gateway;
    private final String database;
    private final String table;
    private final ObjectNode body;
    private final boolean paged;
    private final long pageRows;
    private final BufferAllocator allocator;
    private final Schema schema;
    private GatewayClient.ScanAnswer page;
    private long rows;
    private long bytes;

    private GatewayScanReader(GatewayClient gateway, String database, String table, ObjectNode body, boolean paged,
            long pageRows, BufferAllocator allocator, GatewayClient.ScanAnswer first) {
        this.gateway = gateway;
        this.database = database;
        this.table = table;
        this.body = body;
        this.paged = paged;
        this.pageRows = pageRows;
        this.allocator = allocator;
        this.page = first;
        this.schema = first.reader().schema();
    }

    /**
     * Asks for the first answer (so a wrong table, column or offset fails here, before any output).
     *
     * @param body the scan request without {@code limit}
     * @param paged whether the read is a range of the log, which pages
     */
    static GatewayScanReader open(GatewayClient gateway, String database, String table, ObjectNode body,
            boolean paged, BufferAllocator allocator) throws IOException {
        return open(gateway, database, table, body, paged, PAGE_ROWS, allocator);
    }

    /** As above, with pages of at most {@code pageRows} rows. */
    static GatewayScanReader open(GatewayClient gateway, String database, String table, ObjectNode body,
            boolean paged, long pageRows, BufferAllocator allocator) throws IOException {
        requireNonNull(gateway, "gateway is null");
        if (pageRows < 1) {
            throw new IllegalArgumentException("pageRows must be positive, got " + pageRows);
        }
        ObjectNode first = body.deepCopy();
        if (paged) {
            first.put("limit", pageRows);
        }
        return new GatewayScanReader(gateway, database, table, body, paged, pageRows, allocator,
                gateway.scan(database, table, first, allocator));
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public boolean hasNext() {
        try {
            while (!page.reader().hasNext()) {
                if (!paged || page.done()) {
                    return false;
                }
                nextPage();
            }
            return true;
        } catch (RuntimeException e) {
            // A read cut off half-way: past the gateway's scan timeout, say, or the gateway stopped.
            throw new IllegalStateException(e.getMessage() + " (read through the gateway of 'riffle local' or "
                    + "'riffle serve'; --direct reads from the cluster itself, without the gateway's time limit)", e);
        }
    }

    private void nextPage() {
        ObjectNode next = body.deepCopy();
        next.put("limit", pageRows);
        try {
            next.putObject("from").set("offsets", JSON.readTree(page.nextOffsets().orElseThrow(() ->
                    new IOException("The gateway's page did not say where it ended (Riffle-Next-Offsets)"))));
            next.putObject("until").set("offsets", JSON.readTree(page.untilOffsets().orElseThrow(() ->
                    new IOException("The gateway's page did not say where the read stops (Riffle-Until-Offsets)"))));
            page.close();
            page = gateway.scan(database, table, next, allocator);
        } catch (IOException e) {
            throw new UncheckedIOException("Reading the next page from the gateway failed: " + e.getMessage(), e);
        }
    }

    @Override
    public ReadBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The read has ended");
        }
        ReadBatch batch = page.reader().next();
        rows += batch.rowCount();
        bytes += batch.bufferBytes();
        return batch;
    }

    @Override
    public ReadProgress progress() {
        return new ReadProgress(rows, bytes, 0, 0);
    }

    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return Map.of(); // the gateway names buckets by key; riffle read does not print them
    }

    @Override
    public BufferAllocator allocator() {
        return allocator;
    }

    @Override
    public void close() {
        page.close();
    }
}
