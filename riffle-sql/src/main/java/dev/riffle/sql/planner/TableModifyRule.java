package dev.riffle.sql.planner;

import dev.riffle.sql.catalog.FlussTable;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalTableModify;

/**
 * {@code INSERT}, {@code DELETE} and {@code UPDATE} on a Fluss table become a
 * {@link FlussTableModify}, which writes through Fluss's append or upsert writer. Statements Fluss
 * cannot take fail here with what to do instead: writes to {@code t$log}/{@code t$lake}/{@code
 * t$changelog}, deletes and updates on log tables (append-only), changes to primary-key columns.
 */
public final class TableModifyRule extends ConverterRule {
    public static final TableModifyRule INSTANCE = Config.INSTANCE
            .withConversion(LogicalTableModify.class, modify -> modify.getTable().unwrap(FlussTable.class) != null,
                    Convention.NONE, EnumerableConvention.INSTANCE, "TableModifyRule")
            .withRuleFactory(TableModifyRule::new)
            .toRule(TableModifyRule.class);

    private TableModifyRule(Config config) {
        super(config);
    }

    @Override
    public RelNode convert(RelNode rel) {
        LogicalTableModify modify = (LogicalTableModify) rel;
        FlussTable table = modify.getTable().unwrap(FlussTable.class);
        FlussTableModify.check(table, modify.getOperation(), modify.getUpdateColumnList());
        RelTraitSet traits = modify.getTraitSet().replace(EnumerableConvention.INSTANCE);
        return new FlussTableModify(modify.getCluster(), traits, modify.getTable(), modify.getCatalogReader(),
                convert(modify.getInput(), traits), modify.getOperation(), modify.getUpdateColumnList(),
                modify.getSourceExpressionList(), modify.isFlattened(), table);
    }
}
