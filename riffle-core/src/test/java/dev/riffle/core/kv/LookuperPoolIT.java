package dev.riffle.core.kv;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.TestTables;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.lookup.LookupResult;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A lookup through a {@link LookuperPool} holds a place of its connection's Fluss lookup queue
 * while Fluss holds it (here the client's one-second batch window), and gives it back with the
 * answer; every pool of the connection counts in the same places.
 */
@ExtendWith(LocalClusterExtension.class)
class LookuperPoolIT {

    @Test
    void aLookupHoldsItsPlaceWhileFlussHoldsIt(LocalCluster cluster, TestNames names) throws Exception {
        Configuration conf = cluster.clientConfig();
        conf.setString("client.lookup.queue-size", "4");
        conf.setString("client.lookup.batch-timeout", "1s");
        TablePath path = names.table("kv");
        Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING())
                .primaryKey("id").build();
        try (Connection connection = ConnectionFactory.createConnection(conf)) {
            TestTables.create(connection, path, schema, 1);
            try (Table table = connection.getTable(path)) {
                table.newUpsert().createWriter().upsert(GenericRow.of(1, BinaryString.fromString("a")))
                        .get(30, TimeUnit.SECONDS);
                LookuperPool pool = new LookuperPool(connection);
                LookupsInFlight places = pool.lookupsInFlight();
                assertThat(new LookuperPool(connection).lookupsInFlight()).as("one count per connection")
                        .isSameAs(places);

                CompletableFuture<LookupResult> found = pool.with(table, List.of(),
                        lookuper -> lookuper.lookup(GenericRow.of(1)));
                assertThat(found).as("waiting in Fluss's batch window").isNotDone();
                assertThat(places.count()).isEqualTo(1);
                assertThat(places.tryReserve(4)).as("four places asked, three free").isEmpty();

                assertThat(found.get(30, TimeUnit.SECONDS).getSingletonRow().getString(1).toString()).isEqualTo("a");
                assertThat(places.count()).as("given back with the answer").isZero();
            }
        }
    }
}
