package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidStatementException;
import dev.riffle.core.exception.UnsupportedTableException;
import dev.riffle.sql.catalog.FlussTable;
import dev.riffle.sql.exec.PlannedDirectRead;
import dev.riffle.sql.exec.TableWriteExecutor;
import dev.riffle.sql.plan.ReadPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.BuiltInMethod;
import org.apache.fluss.metadata.TableInfo;

/**
 * Writes the rows of its input to a Fluss table: appends ({@code INSERT} on log tables), upserts
 * ({@code INSERT} and {@code UPDATE} on primary-key tables) or deletes by key ({@code DELETE}).
 * Returns the number of rows written once Fluss has acknowledged all of them.
 */
public final class FlussTableModify extends TableModify implements EnumerableRel {
    private final FlussTable flussTable;

    FlussTableModify(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, Prepare.CatalogReader catalogReader,
            RelNode input, Operation operation, List<String> updateColumnList, List<RexNode> sourceExpressionList,
            boolean flattened, FlussTable flussTable) {
        super(cluster, traits, table, catalogReader, input, operation, updateColumnList, sourceExpressionList,
                flattened);
        this.flussTable = requireNonNull(flussTable, "flussTable is null");
    }

    /** The table written. */
    public FlussTable flussTable() {
        return flussTable;
    }

    /** Fails with what to do instead when Fluss cannot take this change. */
    static void check(FlussTable table, Operation operation, List<String> updateColumns) {
        TableInfo info = table.info();
        String name = info.getTablePath().toString();
        if (table.source() != ReadPlan.Source.CURRENT) {
            throw new UnsupportedTableException(operation + " on " + name + table.source().suffix()
                    + " is not possible: it is a read-only view; write to " + name);
        }
        switch (operation) {
            case INSERT -> { }
            case DELETE, UPDATE -> {
                if (!info.hasPrimaryKey()) {
                    throw new UnsupportedTableException(operation + " needs a primary-key table; " + name
                            + " is a log table, which is append-only");
                }
                if (operation == Operation.UPDATE) {
                    for (String column : updateColumns) {
                        if (info.getPrimaryKeys().contains(column)) {
                            throw new InvalidStatementException("UPDATE cannot change primary-key column " + column
                                    + " of " + name + "; DELETE the row and INSERT it with the new key");
                        }
                    }
                }
            }
            default -> throw new InvalidStatementException(operation + " is not supported on Fluss tables; use INSERT"
                    + " (an upsert on primary-key tables), UPDATE or DELETE");
        }
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new FlussTableModify(getCluster(), traitSet, getTable(), getCatalogReader(), sole(inputs), getOperation(),
                getUpdateColumnList(), getSourceExpressionList(), isFlattened(), flussTable);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        String write = switch (getOperation()) {
            case INSERT -> flussTable.info().hasPrimaryKey() ? "Upsert" : "Append";
            case UPDATE -> "Upsert";
            case DELETE -> "DeleteByKey";
            default -> getOperation().toString();
        };
        return super.explainTerms(pw).item("write", write);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        BlockBuilder builder = new BlockBuilder();
        Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), Prefer.ARRAY);
        Expression rows = builder.append("rows", input.block);
        // whatever shape the input's rows have, the writer takes each as an Object[]
        JavaTypeFactory typeFactory = (JavaTypeFactory) getCluster().getTypeFactory();
        PhysType arrays = PhysTypeImpl.of(typeFactory, getInput().getRowType(), JavaRowFormat.ARRAY, false);
        ParameterExpression row = Expressions.parameter(input.physType.getJavaRowType(), "row");
        List<Expression> fields = new ArrayList<>();
        for (int i = 0; i < getInput().getRowType().getFieldCount(); i++) {
            fields.add(input.physType.fieldReference(row, i, Object.class));
        }
        Expression asArrays = builder.append("asArrays", Expressions.call(rows, BuiltInMethod.SELECT.method,
                Expressions.lambda(arrays.record(fields), row)));
        // Calcite's rows hold timestamps as milliseconds; the literals and parameters the plan shows are exact
        // and an INSERT ... SELECT of a table's columns as they are takes them from the read's Arrow batches
        // (the input as planned: the guards on its edges pass rows on as they are)
        RelNode planned = GuardedInput.strip(getInput());
        Optional<PlannedDirectRead> source = getOperation() == Operation.INSERT
                ? DirectReadMatcher.match(RelRoot.of(planned, SqlKind.SELECT)) : Optional.empty();
        TableWriteExecutor executor = new TableWriteExecutor(flussTable.session(), flussTable.info(), getOperation(),
                getUpdateColumnList() == null ? List.of() : getUpdateColumnList(), ExactColumnsFinder.of(planned), source);
        Expression stashed = implementor.stash(executor, TableWriteExecutor.class);
        builder.add(Expressions.return_(null, Expressions.call(stashed, "write", asArrays, DataContext.ROOT)));
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(),
                pref == Prefer.ARRAY ? JavaRowFormat.ARRAY : JavaRowFormat.SCALAR);
        return implementor.result(physType, builder.toBlock());
    }
}
