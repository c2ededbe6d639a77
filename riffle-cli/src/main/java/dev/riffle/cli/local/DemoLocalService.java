package dev.riffle.cli.local;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.LocalService;
import dev.riffle.local.demo.DemoData;
import java.util.Map;

/**
 * {@code riffle local --demo}: live demo data ({@link DemoData}) in the database {@code demo},
 * written while {@code riffle local} runs, stopped (and flushed) before the other services close.
 */
public final class DemoLocalService implements LocalService {
    /** Orders a second; the demo runs when this option is given. */
    public static final String RATE_OPTION = "demo.rate";

    @Override
    public String name() {
        return "demo data";
    }

    @Override
    public Running start(LocalCluster cluster, Map<String, String> options) throws Exception {
        String rate = options.get(RATE_OPTION);
        if (rate == null) {
            return new Running(Map.of(), () -> {});
        }
        DemoData demo = DemoData.start(cluster.clientConfig(), cluster.lakeEnabled(), Integer.parseInt(rate.trim()));
        String lake = cluster.lakeEnabled() ? ", tiered into the lake every "
                + DemoData.lakeFreshness().toSeconds() + " s" : "";
        return new Running(Map.of("Demo data", DemoData.ORDERS + " (" + demo.ordersPerSecond() + " orders/s" + lake
                + "), " + DemoData.CUSTOMERS + " (upserted)"), demo);
    }
}
