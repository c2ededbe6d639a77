package dev.riffle.lake.union;

import java.util.Set;
import java.util.TreeSet;
import org.apache.fluss.predicate.CompoundPredicate;
import org.apache.fluss.predicate.LeafPredicate;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.predicate.PredicateVisitor;

/** The table fields a predicate reads. */
final class PredicateFields implements PredicateVisitor<Set<Integer>> {
    private PredicateFields() {}

    static Set<Integer> of(Predicate predicate) {
        return predicate.visit(new PredicateFields());
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
