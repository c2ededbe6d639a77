package dev.riffle.core.kv;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.fluss.client.lookup.LookupResult;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.row.InternalRow;

/**
 * Key lookups in one version of a primary-key table: by its whole primary key, or by a prefix of
 * it (its bucket key, plus the partition keys of a partitioned table). This is how every surface
 * sends lookups (the gateway's lookup routes, SQL's lookup plans), so that they share one
 * {@link LookuperPool} per session and one count of lookups in flight ({@link LookupsInFlight}):
 * a thread that must not wait reserves its room there before {@link #send}.
 *
 * <pre>{@code
 * CompletableFuture<List<List<InternalRow>>> rows = handles.lookup(info).send(List.of(key));
 * CompletableFuture<List<InternalRow>> orders = handles.lookup(info).byPrefix(List.of("customer_id")).sendAll(keys);
 * }</pre>
 */
public final class KeyLookup {
    private final LookuperPool lookupers;
    private final Table table;
    private final List<String> lookupColumns;

    /**
     * @param table the open handle of the table version the keys are looked up in
     * @param lookupColumns the columns of a prefix lookup; none for the whole primary key
     */
    public KeyLookup(LookuperPool lookupers, Table table, List<String> lookupColumns) {
        this.lookupers = requireNonNull(lookupers, "lookupers is null");
        this.table = requireNonNull(table, "table is null");
        this.lookupColumns = List.copyOf(lookupColumns);
    }

    /** The same lookups by the prefix {@code columns} of the primary key (Fluss's prefix lookup). */
    public KeyLookup byPrefix(List<String> columns) {
        requireNonNull(columns, "columns is null");
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("A prefix lookup names at least one column");
        }
        return new KeyLookup(lookupers, table, columns);
    }

    /**
     * Sends every key before any answer is awaited (one burst of pipelined lookups, through a
     * lookuper no other thread uses meanwhile), and returns without waiting for the answers. The
     * result holds each key's rows in key order (none for a key without a row) and completes on
     * the thread that receives the last answer.
     */
    public CompletableFuture<List<List<InternalRow>>> send(List<? extends InternalRow> keys) {
        requireNonNull(keys, "keys is null");
        List<CompletableFuture<LookupResult>> sent = lookupers.with(table, lookupColumns, lookuper -> {
            List<CompletableFuture<LookupResult>> pending = new ArrayList<>(keys.size());
            for (InternalRow key : keys) {
                pending.add(lookuper.lookup(key));
            }
            return pending;
        });
        if (sent.size() == 1) {
            // the hottest request (a point lookup) skips the allOf and its arrays
            return sent.get(0).thenApply(result -> List.of(rows(result)));
        }
        return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).thenApply(all -> {
            List<List<InternalRow>> found = new ArrayList<>(sent.size());
            for (CompletableFuture<LookupResult> result : sent) {
                found.add(rows(result.join()));
            }
            return found;
        });
    }

    /** As {@link #send}, the rows of every key in one list, in key order. */
    public CompletableFuture<List<InternalRow>> sendAll(List<? extends InternalRow> keys) {
        return send(keys).thenApply(perKey -> {
            if (perKey.size() == 1) {
                return perKey.get(0);
            }
            List<InternalRow> all = new ArrayList<>();
            perKey.forEach(all::addAll);
            return all;
        });
    }

    private static List<InternalRow> rows(LookupResult result) {
        List<InternalRow> rows = result.getRowList();
        return rows == null ? List.of() : rows;
    }
}
