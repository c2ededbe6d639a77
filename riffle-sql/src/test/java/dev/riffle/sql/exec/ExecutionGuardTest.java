package dev.riffle.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.riffle.sql.exec.StatementStoppedException.Reason;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.junit.jupiter.api.Test;

/** The rules of one execution's guard: its deadline, the first stop winning, its budgets, its guarded edges. */
class ExecutionGuardTest {
    private static final StatementLimits SMALL = StatementLimits.DEFAULT.withBudgets(10, 5, 3);

    @Test
    void theDeadlineStopsTheNextCheckEvenWithoutTheTimer() {
        try (ExecutionGuard guard = ExecutionGuard.create(Optional.of(Duration.ofMillis(50)), SMALL)) {
            guard.check();
            await().atMost(Duration.ofSeconds(2)).until(() -> guard.stopped().isPresent());
            assertThatThrownBy(guard::check).isInstanceOf(StatementStoppedException.class)
                    .hasMessage("canceling statement due to statement timeout: it ran for 50 ms, its deadline")
                    .satisfies(e -> assertThat(((StatementStoppedException) e).reason()).isEqualTo(Reason.TIMEOUT));
        }
        try (ExecutionGuard untimed = ExecutionGuard.create(Optional.empty(), SMALL)) {
            untimed.check();
            assertThat(untimed.timeout()).isEmpty();
        }
        assertThatThrownBy(() -> ExecutionGuard.create(Optional.of(Duration.ofSeconds(-1)), SMALL))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not be negative");
    }

    @Test
    void theFirstStopWinsAndClientChecksArePolled() {
        try (ExecutionGuard guard = ExecutionGuard.create(Optional.of(Duration.ofMinutes(1)), SMALL)) {
            AtomicBoolean gone = new AtomicBoolean();
            guard.watchClient(gone::get);
            gone.set(true);
            await().atMost(Duration.ofSeconds(2)).until(() -> guard.stopped().isPresent());
            assertThat(guard.cancel()).isFalse(); // stopped already: the client's going is the reason
            assertThatThrownBy(guard::check).hasMessage("canceling statement: its client went away");
        }
        try (ExecutionGuard guard = ExecutionGuard.create(Optional.empty(), SMALL)) {
            assertThat(guard.cancel()).isTrue();
            assertThat(guard.cancel(Reason.TIMEOUT, "later")).isFalse();
            assertThatThrownBy(guard::check).hasMessage("canceling statement due to user request");
        }
    }

    @Test
    void budgetsCountWhatAStatementBuildsAndNameTheProperty() {
        try (ExecutionGuard guard = ExecutionGuard.create(Optional.empty(), SMALL)) {
            guard.joinRows(10);
            assertThatThrownBy(() -> guard.joinRows(1)).isInstanceOf(StatementStoppedException.class)
                    .hasMessageStartingWith("The statement's joins produced more than 10 rows, the budget of one"
                            + " statement (maxJoinRows)");
            // Once stopped, every later check throws the same reason.
            assertThatThrownBy(guard::check).hasMessageContaining("maxJoinRows");
        }
        try (ExecutionGuard guard = ExecutionGuard.create(Optional.empty(), SMALL)) {
            assertThatThrownBy(() -> guard.groups(6)).hasMessageContaining("more than 5 groups")
                    .hasMessageContaining("(maxGroups)");
        }
        try (ExecutionGuard guard = ExecutionGuard.create(Optional.empty(), SMALL)) {
            assertThatThrownBy(() -> guard.heldRows(4)).hasMessageContaining("held more than 3 rows")
                    .hasMessageContaining("(maxHeldRows)");
        }
    }

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

    @Test
    void deadlinesAreSaidAsPeopleSayThem() {
        assertThat(ExecutionGuard.describe(Duration.ofMillis(250))).isEqualTo("250 ms");
        assertThat(ExecutionGuard.describe(Duration.ofMillis(1500))).isEqualTo("1500 ms");
        assertThat(ExecutionGuard.describe(Duration.ofSeconds(30))).isEqualTo("30 s");
        assertThat(ExecutionGuard.describe(Duration.ofMinutes(5))).isEqualTo("5 min");
        assertThat(ExecutionGuard.describe(Duration.ofSeconds(90))).isEqualTo("90 s");
    }
}
