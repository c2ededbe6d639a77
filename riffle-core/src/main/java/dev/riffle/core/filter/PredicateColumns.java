package dev.riffle.core.filter;

import java.util.Set;
import java.util.TreeSet;
import org.apache.fluss.predicate.CompoundPredicate;
import org.apache.fluss.predicate.LeafPredicate;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.predicate.PredicateVisitor;

/**
 * The table columns (field positions) a Fluss predicate reads, so a read fetches them even when
 * the caller does not ask for them.
 *
 * <pre>{@code
 * Set<Integer> needed = PredicateColumns.of(predicate);   // e.g. [0, 3]
 * }</pre>
 */
public final class PredicateColumns implements PredicateVisitor<Set<Integer>> {
    private static final PredicateColumns INSTANCE = new PredicateColumns();

    private PredicateColumns() {}

    /** Field positions in the row type the predicate was built over, ascending. */
    public static Set<Integer> of(Predicate predicate) {
        return predicate.visit(INSTANCE);
    }

    @Override
    public Set<Integer> visit(LeafPredicate predicate) {
        Set<Integer> fields = new TreeSet<>();
        fields.add(predicate.index());
        return fields;
    }

    @Override
    public Set<Integer> visit(CompoundPredicate predicate) {
        Set<Integer> fields = new TreeSet<>();
        predicate.children().forEach(child -> fields.addAll(child.visit(this)));
        return fields;
    }
}
