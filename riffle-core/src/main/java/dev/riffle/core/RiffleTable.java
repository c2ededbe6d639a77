package dev.riffle.core;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.read.LakeReads;
import dev.riffle.core.read.ReadBuilder;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.metadata.TableInfo;

/**
 * One Fluss table, as Riffle reads it.
 *
 * <pre>{@code
 * RiffleTable orders = riffle.table("shop.orders");
 * try (TableReader rows = orders.read().columns("id").createReader()) { ... }
 * }</pre>
 */
public final class RiffleTable {
    private final FlussConnection connection;
    private final TableInfo info;
    private final BufferAllocator allocator;
    private final Supplier<LakeReads> lake;

    RiffleTable(FlussConnection connection, TableInfo info, BufferAllocator allocator, Supplier<LakeReads> lake) {
        this.connection = requireNonNull(connection, "connection is null");
        this.info = requireNonNull(info, "info is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.lake = requireNonNull(lake, "lake is null");
    }

    public TableInfo info() {
        return info;
    }

    /** A read of the table's current rows; the builder's intent methods ask for other reads. */
    public ReadBuilder read() {
        return new ReadBuilder(connection, info, allocator, lake);
    }

    /** A bounded read of the changelog (every change, with its change type). */
    public ReadBuilder changelog() {
        return read().changelog();
    }
}
