package dev.riffle.lake.read;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.exception.UnsupportedTableException;
import dev.riffle.core.read.LakeReads;
import dev.riffle.core.read.LakeRequest;
import dev.riffle.core.reader.TableReader;
import dev.riffle.lake.config.LakeConfig;
import dev.riffle.lake.source.FlussPluginLakeSource;
import dev.riffle.lake.union.UnionRead;
import java.util.Optional;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.lake.lakestorage.LakeStorage;

/**
 * The lake side of the read façade for every lake Fluss has a plugin for (Paimon in 0.9): where
 * the lake is, asked once (the client's {@code datalake.*} settings, else the cluster's), and the
 * union or lake-only read of each table through it. This is the one place Riffle finds its lake.
 *
 * <pre>{@code
 * LakeReads lake = new PluginLakeReads(connection);
 * Riffle riffle = Riffle.using(connection, allocator).withLake(lake);
 * }</pre>
 */
public final class PluginLakeReads implements LakeReads {
    private final FlussConnection connection;
    /** Found on first use: a cluster does not move its lake while a client runs. */
    private volatile Optional<Lake> lake = Optional.empty();

    private record Lake(LakeConfig config, LakeStorage storage) {}

    /**
     * @param connection whose settings or cluster name the lake; it may be a service connection
     *     used only for that, while reads run on their callers' own connections
     */
    public PluginLakeReads(FlussConnection connection) {
        this.connection = requireNonNull(connection, "connection is null");
    }

    /** A lake side for the lake {@code config} names, whatever the cluster says. */
    public static PluginLakeReads of(FlussConnection connection, LakeConfig config) {
        PluginLakeReads reads = new PluginLakeReads(connection);
        reads.lake = Optional.of(new Lake(config, FlussPluginLakeSource.storage(config)));
        return reads;
    }

    /** Where the lake is. */
    public LakeConfig config() {
        return lake().config();
    }

    @Override
    public TableReader open(LakeRequest request) {
        Lake known = lake();
        FlussPluginLakeSource source = FlussPluginLakeSource.over(known.storage(), known.config(), request.table().getTablePath(),
                request.table().getRowType());
        Riffle riffle = Riffle.using(request.connection(), request.allocator()).withLake(this);
        UnionRead read = UnionRead.of(riffle, source, request.table()).columns(request.columns())
                .tailRowsInMemory(request.tailRowsInMemory());
        if (request.filter().isPresent()) {
            read = read.filter(request.filter().get());
        }
        if (request.lakeOnly()) {
            read = read.lakeOnly();
        }
        return read.createReader();
    }

    private Lake lake() {
        Optional<Lake> known = lake;
        if (known.isPresent()) {
            return known.get();
        }
        synchronized (this) {
            if (lake.isEmpty()) {
                LakeConfig config;
                try {
                    config = LakeConfig.of(connection).orElseThrow(() -> new UnsupportedTableException(
                            "The cluster names no lake (no datalake.format and datalake.<format>.* settings), so its"
                                    + " datalake-enabled tables cannot be read from the lake; set them on the cluster"
                                    + " or in the client's settings"));
                } catch (UnsupportedTableException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException("Cannot read the cluster's lake settings: " + e.getMessage(), e);
                }
                lake = Optional.of(new Lake(config, FlussPluginLakeSource.storage(config)));
            }
            return lake.get();
        }
    }

    /** Registered as a service: every connection gets a plugin lake side, which finds its lake when first read. */
    public static final class Factory implements LakeReads.Factory {
        @Override
        public Optional<LakeReads> create(FlussConnection connection) {
            return Optional.of(new PluginLakeReads(connection));
        }
    }
}
