package dev.riffle.core;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.read.ReadBuilder;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.metadata.TableInfo;

/**
 * One Fluss table, as Riffle reads it.
 *
 * <pre>{@code
 * RiffleTable orders = riffle.table("shop.orders");
 * try (BoundedLogReader reader = orders.read().columns("id").createReader()) { ... }
 * }</pre>
 */
public final class RiffleTable {
    private final FlussConnection connection;
    private final TableInfo info;
    private final BufferAllocator allocator;

    RiffleTable(FlussConnection connection, TableInfo info, BufferAllocator allocator) {
        this.connection = requireNonNull(connection, "connection is null");
        this.info = requireNonNull(info, "info is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    public TableInfo info() {
        return info;
    }

    /** A bounded read of the log: from the earliest offsets to the latest, every column. */
    public ReadBuilder read() {
        return new ReadBuilder(connection, info, allocator);
    }

    /** A bounded read of the changelog (required for primary-key tables). */
    public ReadBuilder changelog() {
        return read().changelog();
    }
}
