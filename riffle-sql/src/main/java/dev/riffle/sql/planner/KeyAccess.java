package dev.riffle.sql.planner;

import dev.riffle.sql.plan.ReadPlan;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.tools.RelBuilder;
import org.apache.fluss.metadata.TableInfo;

/** What the key access paths share: when they apply, and how the unabsorbed conjuncts stay. */
final class KeyAccess {
    private KeyAccess() {}

    /**
     * Lookups read Fluss's KV store, the current state of a PK table: they serve {@code t} and
     * {@code t$log}, not the changelog or the lake alone.
     */
    static boolean servesKeyLookups(ReadPlan plan) {
        return plan.primaryKeyTable()
                && (plan.source() == ReadPlan.Source.CURRENT || plan.source() == ReadPlan.Source.LOG);
    }

    /** A bucket key that is a proper prefix of the primary key (non-partitioned tables for now). */
    static boolean hasPrefixKey(TableInfo table) {
        List<String> bucketKeys = table.getBucketKeys();
        List<String> primaryKeys = table.getPrimaryKeys();
        return !table.isPartitioned() && !bucketKeys.isEmpty() && bucketKeys.size() < primaryKeys.size()
                && primaryKeys.subList(0, bucketKeys.size()).equals(bucketKeys);
    }

    static RelNode withRemaining(RelBuilder builder, RelNode scan, List<RexNode> remaining) {
        builder.push(scan);
        if (!remaining.isEmpty()) {
            builder.filter(remaining);
        }
        return builder.build();
    }
}
