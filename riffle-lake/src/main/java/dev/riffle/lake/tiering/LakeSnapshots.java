package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.TablePath;

/**
 * The lake snapshot Fluss has registered for a table, as an {@link Optional}: Fluss answers a table
 * never tiered with {@link LakeTableSnapshotNotExistException}.
 *
 * <pre>{@code
 * Optional<LakeSnapshot> lake = LakeSnapshots.latest(admin, TablePath.of("shop", "orders"));
 * }</pre>
 */
final class LakeSnapshots {
    private static final long TIMEOUT_SECONDS = 60;

    private LakeSnapshots() {}

    /** The table's latest lake snapshot (what tiering continues from), if it was ever tiered. */
    static Optional<LakeSnapshot> latest(Admin admin, TablePath table) throws Exception {
        requireNonNull(admin, "admin is null");
        requireNonNull(table, "table is null");
        try {
            return Optional.of(admin.getLatestLakeSnapshot(table).get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
