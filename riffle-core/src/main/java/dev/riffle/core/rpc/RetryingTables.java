package dev.riffle.core.rpc;

import static java.util.Objects.requireNonNull;

import java.util.Set;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.metadata.TablePath;

/**
 * Opens table handles ({@code connection.getTable}, a metadata refresh and a {@code getTableInfo}
 * that Fluss 0.9.1 sends to a random cached tablet server) with {@link RetryingAdmin}'s retries, so
 * a stopped tablet server does not fail the handle of a long-lived process.
 *
 * <pre>{@code
 * try (Table table = RetryingTables.open(connection, TablePath.of("shop", "orders"))) { ... }
 * }</pre>
 */
public final class RetryingTables {
    private RetryingTables() {}

    /** The handle of {@code path} (the caller closes it). */
    public static Table open(FlussConnection connection, TablePath path) {
        requireNonNull(connection, "connection is null");
        requireNonNull(path, "path is null");
        try {
            return RetryingAdmin.POLICY.call("open table " + path, () -> connection.getTable(path),
                    FlussErrors::isRetriable,
                    () -> connection.getMetadataUpdater().updateMetadata(Set.of(), Set.of(), Set.of()));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Opening table " + path + " failed: " + e.getMessage(), e);
        }
    }
}
