package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.catalog.FlussRootSchema;
import dev.riffle.sql.planner.FlussScan;
import dev.riffle.sql.planner.FlussTableModify;
import dev.riffle.sql.planner.VectorizedAggregate;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.fluss.metadata.TableInfo;

/**
 * The tables a prepared statement's plan was made for (each by id and schema id), so a statement
 * kept for reuse is not run against a table that was dropped and created again, or altered, since
 * it was planned: such a statement is planned anew.
 *
 * <pre>{@code
 * if (PreparedTables.stale(statement)) { statement.close(); statement = connection.prepareStatement(sql); }
 * }</pre>
 */
public final class PreparedTables {
    /** Where the planner leaves the tables, among the signature's internal parameters. */
    public static final String KEY = "riffle.tables";

    private PreparedTables() {}

    /** The Fluss tables read or written by a plan. */
    public static List<TableInfo> of(RelNode plan) {
        List<TableInfo> tables = new ArrayList<>();
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                if (node instanceof FlussScan scan) {
                    tables.add(scan.plan().table());
                } else if (node instanceof VectorizedAggregate aggregate) {
                    tables.add(aggregate.plan().table());
                } else if (node instanceof FlussTableModify modify) {
                    tables.add(modify.flussTable().info());
                }
                super.visit(node, ordinal, parent);
            }
        }.go(plan);
        return List.copyOf(tables);
    }

    /**
     * Whether a table the statement was planned for has since been dropped, created again or
     * altered, as the connection's metadata (at most a second old) says.
     */
    public static boolean stale(PreparedStatement statement) throws SQLException {
        requireNonNull(statement, "statement is null");
        var handle = statement.unwrap(AvaticaPreparedStatement.class).handle;
        if (handle == null || handle.signature == null || handle.signature.internalParameters == null) {
            return false;
        }
        FlussRootSchema root;
        try {
            root = statement.getConnection().unwrap(CalciteConnection.class).getRootSchema()
                    .unwrap(FlussRootSchema.class);
        } catch (ClassCastException e) {
            return false;
        }
        return root != null && stale(handle.signature.internalParameters, root.session());
    }

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
        return now.isEmpty() || !sameVersion(planned, now.get());
    }

    /** Whether two descriptions are of the same table in the same schema (not dropped, created again or altered between). */
    static boolean sameVersion(TableInfo one, TableInfo other) {
        return one.getTableId() == other.getTableId() && one.getSchemaId() == other.getSchemaId();
    }
}
