package dev.riffle.sql.catalog;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.sql.exec.FlussSession;
import dev.riffle.sql.plan.ReadPlan;
import dev.riffle.sql.types.SqlTypes;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.fluss.metadata.TableInfo;

/**
 * One SQL table over a Fluss table: {@code t} itself or one of its views {@code t$log},
 * {@code t$lake}, {@code t$changelog} ({@link ReadPlan.Source}). Planning turns it into the
 * planner's scan (made by the factory the connection gave), which reads every row until rules narrow it.
 */
public final class FlussTable extends AbstractTable implements TranslatableTable {
    private final FlussSession session;
    private final TableInfo info;
    private final ReadPlan.Source source;
    private final RelFactories.TableScanFactory scans;

    /** @param scans makes the planner's scan of this table ({@link #toRel}) */
    public FlussTable(FlussSession session, TableInfo info, ReadPlan.Source source,
            RelFactories.TableScanFactory scans) {
        this.session = requireNonNull(session, "session is null");
        this.scans = requireNonNull(scans, "scans is null");
        this.info = requireNonNull(info, "info is null");
        this.source = requireNonNull(source, "source is null");
    }

    public TableInfo info() {
        return info;
    }

    public ReadPlan.Source source() {
        return source;
    }

    public FlussSession session() {
        return session;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        RelDataType data = SqlTypes.rowType(factory, info.getRowType());
        if (source != ReadPlan.Source.CHANGELOG) {
            return data;
        }
        return factory.builder().addAll(data.getFieldList())
                .add(ArrowLogScanner.CHANGE_TYPE_COLUMN, SqlTypeName.VARCHAR)
                .add(ArrowLogScanner.LOG_OFFSET_COLUMN, SqlTypeName.BIGINT)
                .add(ArrowLogScanner.COMMIT_TIMESTAMP_COLUMN, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3)
                .build();
    }

    @Override
    public Schema.TableType getJdbcTableType() {
        return source == ReadPlan.Source.CURRENT ? Schema.TableType.TABLE : Schema.TableType.SYSTEM_TABLE;
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable table) {
        return scans.createScan(context, table);
    }
}
