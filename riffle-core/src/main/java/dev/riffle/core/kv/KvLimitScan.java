package dev.riffle.core.kv;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.rpc.RetryingTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.batch.BatchScanner;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.utils.CloseableIterator;

/**
 * Up to {@code limit} rows of a primary-key table straight from its KV store, bucket by bucket
 * (Fluss's limit scan): the cheap answer to {@code LIMIT n} without a filter, which needs no log
 * read at all. Which rows come back is up to the store.
 *
 * <pre>{@code
 * try (CloseableIterator<InternalRow> rows = KvLimitScan.rows(connection, table, buckets, 10)) { ... }
 * }</pre>
 */
public final class KvLimitScan implements CloseableIterator<InternalRow> {
    private static final Duration POLL = Duration.ofSeconds(30);

    private final Table table;
    private final TableInfo info;
    private final Iterator<TableBucket> buckets;
    private final int limit;
    private int returned;
    private BatchScanner scanner;
    private CloseableIterator<InternalRow> batch;

    private KvLimitScan(Table table, TableInfo info, List<TableBucket> buckets, int limit) {
        this.table = table;
        this.info = info;
        this.buckets = buckets.iterator();
        this.limit = limit;
    }

    /**
     * @param buckets the buckets to scan, in order
     * @param limit the most rows in all
     */
    public static KvLimitScan rows(FlussConnection connection, TableInfo info, List<TableBucket> buckets, int limit) {
        requireNonNull(connection, "connection is null");
        requireNonNull(info, "info is null");
        if (limit < 0) {
            throw new IllegalArgumentException("A limit must be >= 0, got " + limit);
        }
        return new KvLimitScan(RetryingTables.open(connection, info.getTablePath()), info, List.copyOf(buckets), limit);
    }

    @Override
    public boolean hasNext() {
        try {
            while (returned < limit) {
                if (batch != null && batch.hasNext()) {
                    return true;
                }
                if (batch != null) {
                    batch.close();
                    batch = null;
                }
                if (scanner != null) {
                    CloseableIterator<InternalRow> polled = scanner.pollBatch(POLL);
                    if (polled != null) {
                        batch = polled;
                        continue;
                    }
                    scanner.close();
                    scanner = null;
                }
                if (!buckets.hasNext()) {
                    return false;
                }
                TableBucket bucket = buckets.next();
                scanner = table.newScan().limit(limit - returned).createBatchScanner(bucket);
            }
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("The limit scan of " + info.getTablePath() + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public InternalRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The limit scan has ended");
        }
        returned++;
        return batch.next();
    }

    @Override
    public void close() {
        try {
            if (batch != null) {
                batch.close();
            }
            if (scanner != null) {
                scanner.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                table.close();
            } catch (Exception ignored) {
                // the handle holds nothing the connection does not free
            }
        }
    }
}
