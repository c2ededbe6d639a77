package dev.riffle.local.demo;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.types.DataTypes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live demo data for {@code riffle local --demo}: a database {@code demo} with
 * {@code demo.orders}, a log table a generator keeps appending to (and, with a lake, tiered into it
 * every few seconds, so union reads show), and {@code demo.customers}, a primary-key table it keeps
 * upserting. The tables are made if absent and kept across restarts. Closing stops the generator:
 * what it wrote is flushed, and nothing is written after {@link #close()} returns.
 *
 * <pre>{@code
 * try (DemoData demo = DemoData.start(cluster.clientConfig(), true, 2_000)) {
 *     ... // SELECT count(*) FROM demo.orders grows by 2,000 a second
 * }
 * }</pre>
 */
public final class DemoData implements AutoCloseable {
    public static final String DATABASE = "demo";
    public static final TablePath ORDERS = TablePath.of(DATABASE, "orders");
    public static final TablePath CUSTOMERS = TablePath.of(DATABASE, "customers");
    /** How many customers there are; orders name one of them. */
    public static final int CUSTOMER_COUNT = 1_000;
    /** Three queries worth trying first: a count, a point lookup, an aggregate over lake + log. */
    public static final List<String> QUERIES = List.of(
            "SELECT count(*) AS orders FROM demo.orders",
            "SELECT * FROM demo.customers WHERE customer_id = 42",
            "SELECT status, count(*) AS orders, sum(amount) AS revenue FROM demo.orders GROUP BY status "
                    + "ORDER BY orders DESC");

    private static final Logger LOG = LoggerFactory.getLogger(DemoData.class);
    private static final long TICK_MILLIS = 100;
    private static final String[] STATUSES = {"created", "created", "paid", "paid", "paid", "shipped", "shipped",
        "delivered", "delivered", "cancelled"};
    private static final String[] CITIES = {"Amsterdam", "Berlin", "Hangzhou", "Lisbon", "Nairobi", "Oslo",
        "San Francisco", "Sydney", "Toronto", "Warsaw"};
    private static final String[] TIERS = {"basic", "basic", "basic", "silver", "gold"};

    private final Connection connection;
    private final Table orders;
    private final Table customers;
    private final AppendWriter orderWriter;
    private final UpsertWriter customerWriter;
    private final ScheduledExecutorService ticks;
    private final int ordersPerSecond;
    private final Random random = new Random(42);
    private final AtomicLong ordersWritten = new AtomicLong();
    private final AtomicLong customerChanges = new AtomicLong();
    private long nextOrderId;
    private double owed;
    private boolean failed;

    private DemoData(Connection connection, int ordersPerSecond) {
        this.connection = connection;
        this.ordersPerSecond = ordersPerSecond;
        this.orders = connection.getTable(ORDERS);
        this.customers = connection.getTable(CUSTOMERS);
        this.orderWriter = orders.newAppend().createWriter();
        this.customerWriter = customers.newUpsert().createWriter();
        // Unique across restarts without reading anything back.
        this.nextOrderId = System.currentTimeMillis() * 1_000;
        this.ticks = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "riffle-demo-generator");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Makes the demo tables (if absent) and starts writing.
     *
     * @param lake whether {@code demo.orders} is datalake-enabled (the cluster has a lake)
     * @param ordersPerSecond how many orders a second the generator appends (customers change a
     *     tenth as often)
     */
    public static DemoData start(Configuration clientConfig, boolean lake, int ordersPerSecond) throws Exception {
        requireNonNull(clientConfig, "clientConfig is null");
        if (ordersPerSecond < 1 || ordersPerSecond > 1_000_000) {
            throw new IllegalArgumentException("The demo writes 1 to 1,000,000 orders a second, got " + ordersPerSecond);
        }
        Connection connection = ConnectionFactory.createConnection(clientConfig);
        try {
            createTables(connection, lake);
            DemoData demo = new DemoData(connection, ordersPerSecond);
            demo.seedCustomers();
            demo.ticks.scheduleAtFixedRate(demo::tick, 0, TICK_MILLIS, TimeUnit.MILLISECONDS);
            return demo;
        } catch (Exception | Error e) {
            connection.close();
            throw e;
        }
    }

    /** Orders appended so far. */
    public long ordersWritten() {
        return ordersWritten.get();
    }

    /** Customer rows upserted so far (the first {@link #CUSTOMER_COUNT} included). */
    public long customerChanges() {
        return customerChanges.get();
    }

    public int ordersPerSecond() {
        return ordersPerSecond;
    }

    /** Stops the generator, flushes what it wrote, and closes its connection. */
    @Override
    public void close() throws Exception {
        ticks.shutdown();
        if (!ticks.awaitTermination(30, TimeUnit.SECONDS)) {
            ticks.shutdownNow();
            throw new IllegalStateException("The demo generator did not stop within 30 s");
        }
        try {
            orderWriter.flush();
            customerWriter.flush();
        } finally {
            try {
                orders.close();
                customers.close();
            } finally {
                connection.close();
            }
        }
        LOG.info("Demo generator stopped after {} orders and {} customer changes", ordersWritten.get(),
                customerChanges.get());
    }

    private static void createTables(Connection connection, boolean lake) throws Exception {
        try (Admin admin = connection.getAdmin()) {
            admin.createDatabase(DATABASE, DatabaseDescriptor.builder().comment("Live demo data of riffle local --demo")
                    .build(), true).get();
            TableDescriptor.Builder orders = TableDescriptor.builder()
                    .schema(Schema.newBuilder()
                            .column("order_time", DataTypes.TIMESTAMP_LTZ(3)).withComment("when the order was placed")
                            .column("order_id", DataTypes.BIGINT())
                            .column("customer_id", DataTypes.INT()).withComment("demo.customers' key")
                            .column("amount", DataTypes.DECIMAL(10, 2))
                            .column("status", DataTypes.STRING())
                            .build())
                    .comment("Orders as they arrive (riffle local --demo appends to it)")
                    .distributedBy(4);
            if (lake) {
                orders.property("table.datalake.enabled", "true").property("table.datalake.freshness", "10s");
            }
            admin.createTable(ORDERS, orders.build(), true).get();
            admin.createTable(CUSTOMERS, TableDescriptor.builder()
                    .schema(Schema.newBuilder()
                            .column("customer_id", DataTypes.INT())
                            .column("name", DataTypes.STRING())
                            .column("city", DataTypes.STRING())
                            .column("tier", DataTypes.STRING())
                            .column("updated_at", DataTypes.TIMESTAMP_LTZ(3))
                            .primaryKey("customer_id")
                            .build())
                    .comment("Customers, each upserted as they change (riffle local --demo)")
                    .distributedBy(2).build(), true).get();
        }
    }

    private void seedCustomers() throws Exception {
        for (int id = 1; id <= CUSTOMER_COUNT; id++) {
            upsertCustomer(id);
        }
        customerWriter.flush();
    }

    private void tick() {
        if (failed) {
            return;
        }
        try {
            owed += ordersPerSecond * (TICK_MILLIS / 1000.0);
            int due = (int) owed;
            owed -= due;
            TimestampLtz now = TimestampLtz.fromEpochMillis(System.currentTimeMillis());
            for (int i = 0; i < due; i++) {
                int customer = 1 + random.nextInt(CUSTOMER_COUNT);
                BigDecimal amount = BigDecimal.valueOf(100 + random.nextInt(50_000), 2);
                orderWriter.append(GenericRow.of(now, nextOrderId++, customer,
                        Decimal.fromBigDecimal(amount, 10, 2),
                        BinaryString.fromString(STATUSES[random.nextInt(STATUSES.length)])));
                if (random.nextInt(10) == 0) {
                    upsertCustomer(customer);
                }
            }
            ordersWritten.addAndGet(due);
            orderWriter.flush();
            customerWriter.flush();
        } catch (Exception e) {
            failed = true;
            LOG.warn("The demo generator stopped: {}", e.toString());
        }
    }

    private void upsertCustomer(int id) {
        customerWriter.upsert(GenericRow.of(id, BinaryString.fromString("customer-" + id),
                BinaryString.fromString(CITIES[random.nextInt(CITIES.length)]),
                BinaryString.fromString(TIERS[random.nextInt(TIERS.length)]),
                TimestampLtz.fromEpochMillis(System.currentTimeMillis())));
        customerChanges.incrementAndGet();
    }

    /** How long the demo's lake lags the log at most, for the banner. */
    public static Duration lakeFreshness() {
        return Duration.ofSeconds(10);
    }
}
