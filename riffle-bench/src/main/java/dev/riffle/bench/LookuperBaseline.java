package dev.riffle.bench;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.row.GenericRow;

/**
 * The baseline of every point-query target: the Fluss {@code Lookuper}, one key at a time, with
 * the 1 ms lookup batch timeout Riffle's servers use (Fluss's default 100 ms would flatter every
 * protocol measured against it). Prints {@code RESULT <p50 ms> ...} for {@link ClientJvm}.
 *
 * <pre>{@code
 * LookuperBaseline.measure("127.0.0.1:9123", 100_000, 500, 2_000);
 * }</pre>
 */
final class LookuperBaseline {
    private LookuperBaseline() {}

    /** Looks up {@code lookups} keys of {@link BenchTables#ACCOUNTS} after {@code warmup} unmeasured ones. */
    static void measure(String bootstrap, int keys, int warmup, int lookups) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrap);
        conf.setString("client.lookup.batch-timeout", "1ms");
        double[] millis = new double[lookups];
        try (Connection connection = ConnectionFactory.createConnection(conf);
                Table table = connection.getTable(BenchTables.ACCOUNTS)) {
            Lookuper lookuper = table.newLookup().createLookuper();
            for (int i = 0; i < warmup + lookups; i++) {
                long key = PointKeys.key(i, keys);
                long started = System.nanoTime();
                if (lookuper.lookup(GenericRow.of(key)).get().getSingletonRow() == null) {
                    throw new IllegalStateException("key " + key + " not found");
                }
                if (i >= warmup) {
                    millis[i - warmup] = (System.nanoTime() - started) / 1e6;
                }
            }
        }
        PointKeys.printResult(millis, "lookups");
    }
}
