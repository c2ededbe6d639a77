package dev.riffle.sql.pgcatalog;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.exec.FlussSession;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.calcite.DataContext;

/**
 * Where a statement's catalog tables get their {@link CatalogSnapshot}: one per execution, so that
 * every catalog table a statement joins sees the same catalog; reused by the statements that follow
 * within a second (psql's {@code \d} is nine statements), unless DDL through this session changed
 * the catalog meanwhile. Thread-safe.
 *
 * <pre>{@code
 * CatalogSnapshot snapshot = snapshots.of(root);   // in a catalog table's scan
 * }</pre>
 */
public final class CatalogSnapshots {
    private static final long REUSE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final FlussSession session;
    private final Map<DataContext, CatalogSnapshot> byExecution = Collections.synchronizedMap(new WeakHashMap<>());
    private List<CatalogTable> system = List.of();
    private CatalogSnapshot recent;
    private long recentNanos;
    private long recentVersion = -1;

    public CatalogSnapshots(FlussSession session) {
        this.session = requireNonNull(session, "session is null");
    }

    /** The system catalog tables, which the snapshots list among the relations. */
    synchronized void system(List<CatalogTable> tables) {
        this.system = List.copyOf(tables);
    }

    /** The snapshot of the execution {@code root} belongs to. */
    public CatalogSnapshot of(DataContext root) {
        return byExecution.computeIfAbsent(root, ignored -> current());
    }

    /** A snapshot at most a second old (and none older than the session's last DDL). */
    public synchronized CatalogSnapshot current() {
        long now = System.nanoTime();
        long version = session.catalogVersion();
        if (recent == null || now - recentNanos > REUSE_NANOS || version != recentVersion) {
            recent = CatalogSnapshot.of(session, system);
            recentNanos = now;
            recentVersion = version;
        }
        return recent;
    }
}
