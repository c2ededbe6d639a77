package dev.riffle.server.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.riffle.server.failure.ServiceException;
import dev.riffle.sql.statement.ExecutionGuard;
import dev.riffle.sql.statement.StatementLimits;
import dev.riffle.sql.statement.StatementStoppedException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Admission of statements: places in all and per principal, a bounded wait in a bounded queue, places given back. */
class RunningStatementsTest {
    private static final StatementAdmission TWO = new StatementAdmission(2, 1, 1, Duration.ofMillis(300));

    @Test
    void placesAreBoundedInAllAndPerPrincipal() {
        try (RunningStatements statements = new RunningStatements(TWO)) {
            RunningStatement alice = begin(statements, "alice");
            alice.admit();
            RunningStatement aliceAgain = begin(statements, "alice");
            assertThat(aliceAgain.tryAdmit()).as("one statement of a principal at once").isFalse();
            RunningStatement bob = begin(statements, "bob");
            assertThat(bob.tryAdmit()).isTrue();
            assertThat(statements.admitted()).isEqualTo(2);
            RunningStatement server = begin(statements, null);
            assertThat(server.tryAdmit()).as("two at once in all").isFalse();
            assertThat(statements.list()).extracting(RunningStatement::id).containsExactly(alice.id(), aliceAgain.id(),
                    bob.id(), server.id());
            alice.yieldPlace(); // waiting for its client: its place is free
            assertThat(server.tryAdmit()).isTrue();
            bob.close();
            server.close();
            alice.close();
            aliceAgain.close();
            assertThat(statements.admitted()).isZero();
            assertThat(statements.list()).isEmpty();
        }
    }

    @Test
    void aStatementAdmittedWhenComputingTakesNoPlaceUntilItComputes() {
        try (RunningStatements statements = new RunningStatements(TWO)) {
            RunningStatement first = begin(statements, null);
            RunningStatement second = begin(statements, null);
            first.admit();
            second.admit();
            RunningStatement read = begin(statements, null);
            read.admitWhenComputing(); // opening its reader waits for no place, though none is free
            assertThat(read.admissible()).isTrue();
            assertThat(read.admitted()).isFalse();
            assertThat(statements.admitted()).isEqualTo(2);
            first.close();
            read.admit(); // its first batch takes the place that freed
            assertThat(read.admitted()).isTrue();
            assertThat(statements.admitted()).isEqualTo(2);
            read.yieldPlace();
            assertThat(statements.admitted()).isEqualTo(1);
            read.close();
            second.close();
            assertThat(statements.admitted()).isZero();
        }
    }

    @Test
    void aStatementWaitsBoundedlyInABoundedQueue() throws Exception {
        try (RunningStatements statements = new RunningStatements(TWO)) {
            RunningStatement first = begin(statements, null);
            RunningStatement second = begin(statements, null);
            first.admit();
            second.admit();
            RunningStatement waiting = begin(statements, null);
            CompletableFuture<Void> admitted = CompletableFuture.runAsync(waiting::admit);
            await().atMost(Duration.ofSeconds(2)).until(() -> statements.queued() == 1);
            // The queue holds one: the next is refused at once, naming why.
            RunningStatement refused = begin(statements, null);
            assertThatThrownBy(refused::admit).isInstanceOf(ServiceException.class)
                    .hasMessageContaining("runs 2 statements at once and 1 more wait already");
            first.close(); // its place goes to the one waiting
            admitted.get(2, TimeUnit.SECONDS);
            assertThat(statements.admitted()).isEqualTo(2);
            // No place frees within the queue timeout: busy.
            long started = System.nanoTime();
            assertThatThrownBy(refused::admit).isInstanceOf(ServiceException.class)
                    .hasMessageContaining("no place to run it freed within");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isBetween(250L, 2_000L);
            second.close();
            waiting.close();
            refused.close();
        }
    }

    @Test
    void aCancelEndsTheWait() throws Exception {
        try (RunningStatements statements = new RunningStatements(TWO.withQueueTimeout(Duration.ofMinutes(1)))) {
            RunningStatement first = begin(statements, null);
            RunningStatement second = begin(statements, null);
            first.admit();
            second.admit();
            RunningStatement waiting = begin(statements, null);
            CompletableFuture<Void> admitted = CompletableFuture.runAsync(waiting::admit);
            await().atMost(Duration.ofSeconds(2)).until(() -> statements.queued() == 1);
            waiting.cancel("canceling statement due to user request");
            assertThatThrownBy(() -> admitted.get(2, TimeUnit.SECONDS)).hasCauseInstanceOf(
                    StatementStoppedException.class);
            assertThat(statements.queued()).isZero();
            waiting.close();
            first.close();
            second.close();
            assertThat(statements.admitted()).isZero();
        }
    }

    private static RunningStatement begin(RunningStatements statements, String principal) {
        return statements.begin(Optional.ofNullable(principal), "test", "SELECT 1",
                ExecutionGuard.create(Optional.empty(), StatementLimits.DEFAULT));
    }
}
