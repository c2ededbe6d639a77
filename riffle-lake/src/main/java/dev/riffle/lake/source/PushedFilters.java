package dev.riffle.lake.source;

import java.util.List;
import org.apache.fluss.predicate.Predicate;

/**
 * What a lake did with the filters it was given: each one is exact (every row the lake returns
 * satisfies it), inexact (it only pruned files; rows must be checked again) or not applied.
 * Rows from the Fluss log tail never went through the lake: they are always filtered again.
 */
public record PushedFilters(List<Predicate> exact, List<Predicate> inexact, List<Predicate> notApplied) {
    public PushedFilters {
        exact = List.copyOf(exact);
        inexact = List.copyOf(inexact);
        notApplied = List.copyOf(notApplied);
    }

    public static PushedFilters none(List<Predicate> filters) {
        return new PushedFilters(List.of(), List.of(), filters);
    }
}
