package dev.riffle.core.read;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.predicate.Predicate;

/**
 * One read of a datalake-enabled table, as the façade hands it to {@link LakeReads}.
 *
 * @param columns the columns to return, in order (table column names)
 * @param filter over the table's row type; the lake applies what it can, the rest is checked on the rows
 * @param lakeOnly the lake snapshot alone, without the log past it
 * @param tailRowsInMemory how many log-tail rows of a primary-key table the merge may hold
 */
public record LakeRequest(FlussConnection connection, TableInfo table, List<String> columns,
        Optional<Predicate> filter, boolean lakeOnly, long tailRowsInMemory, BufferAllocator allocator) {
    public LakeRequest {
        requireNonNull(connection, "connection is null");
        requireNonNull(table, "table is null");
        columns = List.copyOf(columns);
        requireNonNull(filter, "filter is null");
        requireNonNull(allocator, "allocator is null");
    }
}
