package dev.riffle.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.sql.statement.ExecutionGuard;
import dev.riffle.sql.statement.StatementLimits;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.junit.jupiter.api.Test;

/** A guarded edge between two of Calcite's operators: what its rows count toward, and where it stops. */
class GuardedEnumerableTest {
    private static final StatementLimits SMALL = StatementLimits.DEFAULT.withBudgets(10, 5, 3);

    @Test
    void aGuardedEdgeCountsItsRolesAndStopsMidStream() {
        try (ExecutionGuard guard = ExecutionGuard.create(Optional.empty(), SMALL)) {
            Enumerable<Integer> joined = new GuardedEnumerable<>(guard, Linq4j.asEnumerable(List.of(1, 2, 3, 4, 5)),
                    GuardedEnumerable.JOIN_OUTPUT, Long.MAX_VALUE);
            assertThat(joined.toList()).containsExactly(1, 2, 3, 4, 5);
            assertThat(joined.toList()).hasSize(5); // ten join rows: at the budget, not past it
            assertThatThrownBy(joined::toList).hasMessageContaining("maxJoinRows");
        }
        try (ExecutionGuard guard = ExecutionGuard.create(Optional.empty(), SMALL)) {
            // A top-N's input holds at most its cap.
            Enumerable<Integer> capped = new GuardedEnumerable<>(guard, Linq4j.asEnumerable(List.of(1, 2, 3, 4, 5)),
                    GuardedEnumerable.HELD, 2);
            assertThat(capped.toList()).hasSize(5);
            Enumerable<Integer> held = new GuardedEnumerable<>(guard, Linq4j.asEnumerable(List.of(1, 2)),
                    GuardedEnumerable.HELD, Long.MAX_VALUE);
            assertThatThrownBy(held::toList).hasMessageContaining("held more than 3 rows");
        }
        try (ExecutionGuard guard = ExecutionGuard.create(Optional.empty(), SMALL)) {
            // An aggregate's groups are counted as it makes them: 3 groups of 6 rows pass, 6 groups do not.
            Enumerable<Integer> input = new GuardedEnumerable<>(guard, Linq4j.asEnumerable(List.of(1, 2, 3, 1, 2, 3)),
                    GuardedEnumerable.GROUPS, Long.MAX_VALUE);
            assertThat(input.groupBy(x -> x, () -> 0, (sum, x) -> sum + x, (key, sum) -> key + "=" + sum).toList())
                    .containsExactlyInAnyOrder("1=2", "2=4", "3=6");
            Enumerable<Integer> many = new GuardedEnumerable<>(guard, Linq4j.asEnumerable(List.of(4, 5, 6)),
                    GuardedEnumerable.GROUPS, Long.MAX_VALUE);
            assertThatThrownBy(() -> many.groupBy(x -> x, () -> 0, (sum, x) -> sum + x, (key, sum) -> key).toList())
                    .hasMessageContaining("more than 5 groups");
        }
        try (ExecutionGuard guard = ExecutionGuard.create(Optional.empty(), SMALL)) {
            Enumerable<Integer> rows = new GuardedEnumerable<>(guard, Linq4j.asEnumerable(List.of(1, 2, 3)),
                    GuardedEnumerable.ROOT, Long.MAX_VALUE);
            try (Enumerator<Integer> enumerator = rows.enumerator()) {
                assertThat(enumerator.moveNext()).isTrue();
                guard.cancel();
                assertThatThrownBy(enumerator::moveNext).hasMessage("canceling statement due to user request");
            }
            assertThat(guard.rows()).isEqualTo(1);
        }
    }
}
