package dev.riffle.sql.statement;

import dev.riffle.core.reader.TableReader;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.Meta;

/**
 * A prepared statement whose whole plan is one read of one table (a scan with its projection,
 * pushed conditions and limit, or a key lookup, and nothing computed above it): such a statement
 * can be answered with the read's Arrow batches as they are, at full precision, without turning
 * them into Calcite rows. Servers (the HTTP SQL endpoint, Flight SQL) ask for it with
 * {@link #of(PreparedStatement)} and fall back to the JDBC result set otherwise.
 *
 * <pre>{@code
 * Optional<DirectRead> direct = DirectRead.of(statement);
 * if (direct.isPresent()) {
 *     try (TableReader rows = direct.get().open(List.of(42), allocator)) { ... }
 * }
 * }</pre>
 */
public interface DirectRead {
    /** Where the planner leaves a statement's direct read, among the signature's internal parameters. */
    String KEY = "riffle.directRead";

    /** The direct read of a statement prepared by the {@code jdbc:riffle} driver, when its plan is one. */
    static Optional<DirectRead> of(PreparedStatement statement) throws SQLException {
        if (!statement.isWrapperFor(AvaticaPreparedStatement.class)) {
            return Optional.empty();
        }
        Meta.StatementHandle handle = statement.unwrap(AvaticaPreparedStatement.class).handle;
        if (handle == null || handle.signature == null || handle.signature.internalParameters == null) {
            return Optional.empty();
        }
        return Optional.ofNullable((DirectRead) handle.signature.internalParameters.get(KEY));
    }

    /** The statement's column names, in order. */
    List<String> columnNames();

    /**
     * The statement's rows as Arrow batches allocated from {@code allocator}, its {@code ?}
     * parameters bound to {@code parameters}
     * (Calcite's values, as JDBC setters make them: {@code Integer}, {@code Long},
     * {@code BigDecimal}, {@code String}, {@code Boolean}, ...).
     */
    TableReader open(List<Object> parameters, BufferAllocator allocator);

    /**
     * The rows {@link #open(List, BufferAllocator)} answers, when the statement is a key lookup (of
     * whole primary keys or of a bucket-key prefix): once the keys are found, with no thread waiting
     * for the answers meanwhile, and as the found rows themselves, not as an Arrow batch, so a server
     * can answer many point queries at once cheaply. Empty for a table read.
     *
     * <pre>{@code
     * direct.lookUp(List.of(42)).ifPresent(found -> found.thenAccept(rows -> render(rows)));
     * }</pre>
     */
    Optional<CompletableFuture<LookedUpRows>> lookUp(List<Object> parameters);

    /** Whether the statement is a key lookup, which {@link #lookUp} answers. */
    boolean isKeyLookup();

    /**
     * Whether the table this read was planned for has since been dropped, created again or
     * altered, as its session's metadata (at most a second old) says: then it must be planned anew.
     */
    boolean stale();

    /**
     * Whether {@link #lookUp} can be sent now asking the cluster nothing, and the read is not
     * {@link #stale}: the table's metadata checked within the last second is the one it was planned
     * for, its handle is open, and it is not partitioned (a partition's metadata may be fetched on
     * the caller's thread). What a caller that must not wait (a server's selector thread) checks
     * instead of {@link #stale}, which may ask the cluster; it then sends the lookups with
     * {@link #lookUpWithoutWaiting}.
     */
    boolean answersWithoutAsking();

    /**
     * As {@link #lookUp}, for a thread that must not wait: empty also when Fluss's lookup queue has
     * no room for the statement's keys now ({@code LookupsInFlight}), when another thread should
     * send them.
     */
    Optional<CompletableFuture<LookedUpRows>> lookUpWithoutWaiting(List<Object> parameters);

    /**
     * Where this read, with these parameters, would start and stop in each bucket, captured now,
     * when it is a log or changelog read without a row limit: a read that can be cut into parts by
     * buckets ({@link #open(List, BufferAllocator, BucketOffsets)}), each part reading its buckets
     * between these offsets without asking Fluss for them again.
     */
    Optional<BucketOffsets> offsets(List<Object> parameters, BufferAllocator allocator);

    /** One part of the read: the buckets of {@code part}, each between its offsets (see {@link #offsets}). */
    TableReader open(List<Object> parameters, BufferAllocator allocator, BucketOffsets part);
}
