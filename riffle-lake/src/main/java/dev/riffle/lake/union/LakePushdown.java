package dev.riffle.lake.union;

import java.util.EnumSet;
import java.util.Set;
import org.apache.fluss.predicate.CompoundPredicate;
import org.apache.fluss.predicate.LeafPredicate;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.predicate.PredicateVisitor;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.RowType;

/**
 * Which filter conjuncts are handed to the lake's scan. Fluss 0.9.1's predicates read a
 * TIMESTAMP_LTZ field as TIMESTAMP_NTZ, and binary and nested values have no comparison the lake
 * plugin converts, so conjuncts on such columns are checked on the rows instead of pushed.
 */
final class LakePushdown implements PredicateVisitor<Boolean> {
    private static final Set<DataTypeRoot> NOT_PUSHED = EnumSet.of(DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
            DataTypeRoot.BINARY, DataTypeRoot.BYTES, DataTypeRoot.ARRAY, DataTypeRoot.MAP, DataTypeRoot.ROW);

    private final RowType rowType;

    private LakePushdown(RowType rowType) {
        this.rowType = rowType;
    }

    /** Whether the lake may be given {@code predicate} (over {@code rowType}). */
    static boolean accepts(Predicate predicate, RowType rowType) {
        return predicate.visit(new LakePushdown(rowType));
    }

    @Override
    public Boolean visit(LeafPredicate predicate) {
        return !NOT_PUSHED.contains(rowType.getTypeAt(predicate.index()).getTypeRoot());
    }

    @Override
    public Boolean visit(CompoundPredicate predicate) {
        return predicate.children().stream().allMatch(child -> child.visit(this));
    }
}
