package dev.riffle.sql.planner;

import dev.riffle.sql.exec.PreparedTables;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.fluss.metadata.TableInfo;

/**
 * The Fluss tables a plan reads or writes, which {@link PreparedTables} keeps with a prepared
 * statement to tell when it must be planned anew.
 *
 * <pre>{@code
 * signature.internalParameters.put(PreparedTables.KEY, PlannedTables.of(root.rel));
 * }</pre>
 */
public final class PlannedTables {
    private PlannedTables() {}

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
}
