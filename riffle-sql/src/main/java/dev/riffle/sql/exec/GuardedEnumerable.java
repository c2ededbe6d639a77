package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.statement.ExecutionGuard;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.EnumerableDefaults;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.EqualityComparer;
import org.apache.calcite.linq4j.function.Function0;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.function.Function2;

/**
 * The rows of one edge of a plan, between an operator and its input, each checked against the
 * execution's {@link ExecutionGuard}: the guard's stop is looked at before every row (two flag
 * reads), and the row is counted toward the budgets its edge stands for. Its roles say what those
 * are: the rows a join produced ({@link #JOIN_OUTPUT}), rows the consumer holds until it is done
 * ({@link #HELD}: a sort, a window, a set operation, a join's build side), or the input of an
 * aggregate, whose groups it counts as the aggregate makes them ({@link #GROUPS}: Calcite's
 * aggregate calls {@code groupBy} on its input, which this class is).
 *
 * <pre>{@code
 * Enumerable<Object[]> rows = GuardedEnumerable.watch(root, join, GuardedEnumerable.JOIN_OUTPUT, Long.MAX_VALUE);
 * }</pre>
 */
public final class GuardedEnumerable<T> extends AbstractEnumerable<T> {
    /** The rows are a join's output. */
    public static final int JOIN_OUTPUT = 1;
    /** The consumer holds the rows until it has read them all. */
    public static final int HELD = 2;
    /** The consumer is an aggregate: the groups it makes are counted. */
    public static final int GROUPS = 4;
    /** The edge is the statement's answer: the guard ends when it is closed. */
    public static final int ROOT = 8;

    private final ExecutionGuard guard;
    private final Enumerable<T> input;
    private final int roles;
    private final long heldCap;

    GuardedEnumerable(ExecutionGuard guard, Enumerable<T> input, int roles, long heldCap) {
        this.guard = requireNonNull(guard, "guard is null");
        this.input = requireNonNull(input, "input is null");
        this.roles = roles;
        this.heldCap = heldCap;
    }

    /**
     * {@code input}, checked at every row: the call the generated code of a guarded plan makes
     * for each edge between two operators.
     *
     * @param roles what the rows of this edge count toward ({@link #JOIN_OUTPUT},
     *     {@link #HELD}, {@link #GROUPS}, {@link #ROOT})
     * @param heldCap the most rows of this edge its consumer holds (a top-N's offset plus fetch)
     */
    public static <T> Enumerable<T> watch(DataContext root, Enumerable<T> input, int roles, long heldCap) {
        return new GuardedEnumerable<>(ExecutionGuard.of(root), input, roles, heldCap);
    }

    @Override
    public Enumerator<T> enumerator() {
        guard.check();
        return new Guarded(input.enumerator());
    }

    private final class Guarded implements Enumerator<T> {
        private final Enumerator<T> rows;
        private long held;
        /** Rows passed on and not yet added to the guard's progress (added a thousand at a time). */
        private int passed;

        Guarded(Enumerator<T> rows) {
            this.rows = rows;
        }

        @Override
        public T current() {
            return rows.current();
        }

        @Override
        public boolean moveNext() {
            if (guard.stopping()) {
                guard.check();
            }
            if (!rows.moveNext()) {
                return false;
            }
            if (++passed == 1024) {
                guard.rows(passed);
                passed = 0;
            }
            if ((roles & JOIN_OUTPUT) != 0) {
                guard.joinRows(1);
            }
            if ((roles & HELD) != 0 && held < heldCap) {
                held++;
                guard.heldRows(1);
            }
            return true;
        }

        @Override
        public void reset() {
            rows.reset();
        }

        @Override
        public void close() {
            try {
                guard.rows(passed);
                passed = 0;
                rows.close();
            } finally {
                if ((roles & ROOT) != 0) {
                    guard.close();
                }
            }
        }
    }

    // Calcite's aggregate asks its input for the groups; each group's accumulator is made once.

    @Override
    public <K, A, R> Enumerable<R> groupBy(Function1<T, K> keySelector, Function0<A> accumulatorInitializer,
            Function2<A, T, A> accumulatorAdder, Function2<K, A, R> resultSelector) {
        return EnumerableDefaults.groupBy(this, keySelector, counted(accumulatorInitializer), accumulatorAdder,
                resultSelector);
    }

    @Override
    public <K, A, R> Enumerable<R> groupBy(Function1<T, K> keySelector, Function0<A> accumulatorInitializer,
            Function2<A, T, A> accumulatorAdder, Function2<K, A, R> resultSelector, EqualityComparer<K> comparer) {
        return EnumerableDefaults.groupBy(this, keySelector, counted(accumulatorInitializer), accumulatorAdder,
                resultSelector, comparer);
    }

    @Override
    public Enumerable<T> distinct() {
        if ((roles & GROUPS) == 0) {
            return super.distinct();
        }
        Set<T> distinct = new LinkedHashSet<>();
        try (Enumerator<T> rows = enumerator()) {
            while (rows.moveNext()) {
                if (distinct.add(rows.current())) {
                    guard.groups(1);
                }
            }
        }
        return Linq4j.asEnumerable(distinct);
    }

    private <A> Function0<A> counted(Function0<A> initializer) {
        if ((roles & GROUPS) == 0) {
            return initializer;
        }
        return () -> {
            guard.groups(1);
            return initializer.apply();
        };
    }
}
