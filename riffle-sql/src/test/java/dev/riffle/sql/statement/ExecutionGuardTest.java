package dev.riffle.sql.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.riffle.sql.statement.StatementStoppedException.Reason;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The rules of one execution's guard: its deadline, the first stop winning, its budgets. */
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
    void deadlinesAreSaidAsPeopleSayThem() {
        assertThat(ExecutionGuard.describe(Duration.ofMillis(250))).isEqualTo("250 ms");
        assertThat(ExecutionGuard.describe(Duration.ofMillis(1500))).isEqualTo("1500 ms");
        assertThat(ExecutionGuard.describe(Duration.ofSeconds(30))).isEqualTo("30 s");
        assertThat(ExecutionGuard.describe(Duration.ofMinutes(5))).isEqualTo("5 min");
        assertThat(ExecutionGuard.describe(Duration.ofSeconds(90))).isEqualTo("90 s");
    }
}
