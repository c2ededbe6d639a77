package dev.riffle.local.junit;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.fluss.metadata.TablePath;

/**
 * Unique names for one test, so tests sharing a cluster never see each other's tables:
 * {@code names.table("orders")} gives {@code riffle_it.orders_readsEveryRow_7}.
 */
public final class TestNames {
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final int MAX_OWNER_LENGTH = 40;

    private final String database;
    private final String owner;

    TestNames(String database, String owner) {
        this.database = requireNonNull(database, "database is null");
        String clean = requireNonNull(owner, "owner is null").replaceAll("[^A-Za-z0-9_]", "_");
        this.owner = clean.length() > MAX_OWNER_LENGTH ? clean.substring(0, MAX_OWNER_LENGTH) : clean;
    }

    /** A table name not used before in this JVM, in the shared test database. */
    public TablePath table(String base) {
        return TablePath.of(database, base + "_" + owner + "_" + SEQUENCE.incrementAndGet());
    }

    /** A database name not used before in this JVM; the database is not created. */
    public String database(String base) {
        return base + "_" + owner + "_" + SEQUENCE.incrementAndGet();
    }
}
