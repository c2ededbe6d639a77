package dev.riffle.sql.exec;

import dev.riffle.core.tables.TableHandles;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TableInfo;

/**
 * The tables a prepared statement's plan was made for (each by id and schema id), so a statement
 * kept for reuse is not run against a table that was dropped and created again, or altered, since
 * it was planned: such a statement is planned anew.
 *
 * <pre>{@code
 * if (PreparedTables.stale(plan.internalParameters, session)) { ... plan anew ... }
 * }</pre>
 */
public final class PreparedTables {
    /** Where the planner leaves the tables, among the signature's internal parameters. */
    public static final String KEY = "riffle.tables";

    private PreparedTables() {}

    /**
     * Whether a table a plan was made for (as its signature's internal parameters name them) has
     * since been dropped, created again or altered, as {@code session}'s metadata (at most a
     * second old) says.
     */
    @SuppressWarnings("unchecked")
    public static boolean stale(Map<String, Object> internalParameters, FlussSession session) {
        Object tables = internalParameters == null ? null : internalParameters.get(KEY);
        if (!(tables instanceof List<?> list) || list.isEmpty()) {
            return false;
        }
        for (TableInfo planned : (List<TableInfo>) list) {
            if (changed(planned, session)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the table a plan was made for has since been dropped, created again or altered, as
     * {@code session}'s metadata (at most a second old) says.
     */
    static boolean changed(TableInfo planned, FlussSession session) {
        Optional<TableInfo> now = session.recentTableInfo(planned.getTablePath());
        return now.isEmpty() || !TableHandles.sameVersion(planned, now.get());
    }
}
