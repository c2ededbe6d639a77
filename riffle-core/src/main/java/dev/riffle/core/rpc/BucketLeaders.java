package dev.riffle.core.rpc;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.cluster.BucketLocation;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.gateway.TabletServerGateway;

/**
 * Where {@link LogFetcher} sends a bucket's fetches: the bucket's leader as the client's metadata
 * knows it, that server's gateway, and a refresh of the metadata after the leader turned out to
 * be wrong or gone. Its own interface so that tests can put a faulty cluster behind a fetcher.
 */
interface BucketLeaders {

    /** The leader of {@code bucket}, if the metadata knows one. */
    Optional<Integer> leader(TableBucket bucket);

    /** The gateway of tablet server {@code serverId}, if the metadata knows that server. */
    Optional<TabletServerGateway> gateway(int serverId);

    /** Looks up the table's (or one partition's) buckets and leaders anew. */
    void refresh(TablePath table, Long partitionId);

    /** The id the metadata knows for the table at {@code path} now, if it knows one. */
    default Optional<Long> tableId(TablePath path) {
        return Optional.empty();
    }

    /** The Fluss client's metadata. */
    static BucketLeaders of(MetadataUpdater metadata) {
        requireNonNull(metadata, "metadata is null");
        return new BucketLeaders() {
            @Override
            public Optional<Integer> leader(TableBucket bucket) {
                return metadata.getBucketLocation(bucket).map(BucketLocation::getLeader);
            }

            @Override
            public Optional<TabletServerGateway> gateway(int serverId) {
                return Optional.ofNullable(metadata.newTabletServerClientForNode(serverId));
            }

            @Override
            public void refresh(TablePath table, Long partitionId) {
                metadata.updateTableOrPartitionMetadata(table, partitionId);
            }

            @Override
            public Optional<Long> tableId(TablePath path) {
                return metadata.getCluster().getTableId(path);
            }
        };
    }
}
