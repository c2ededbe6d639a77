package dev.riffle.core.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.fluss.client.lookup.LookupResult;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.junit.jupiter.api.Test;

/**
 * Every lookup holds a place of the queue from sending until Fluss answers it: a thread that must
 * not wait gets a reservation or nothing, and others wait for a place rather than in Fluss's queue.
 */
class LookupsInFlightTest {
    private final List<CompletableFuture<LookupResult>> pending = new ArrayList<>();

    private Lookuper fluss() {
        return key -> {
            CompletableFuture<LookupResult> answer = new CompletableFuture<>();
            synchronized (pending) {
                pending.add(answer);
            }
            return answer;
        };
    }

    @Test
    void aLookupHoldsItsPlaceUntilFlussAnswersIt() throws Exception {
        LookupsInFlight inFlight = new LookupsInFlight(3);
        Lookuper lookuper = inFlight.counting(fluss());
        CompletableFuture<LookupResult> first = lookuper.lookup(GenericRow.of(1));
        CompletableFuture<LookupResult> second = lookuper.lookup(GenericRow.of(2));
        assertThat(inFlight.count()).isEqualTo(2);
        assertThat(inFlight.tryReserve(2)).as("two places asked, one left").isEmpty();

        // The caller's future is its own: cancelling it leaves Fluss's lookup, and its place, as they are.
        first.cancel(true);
        assertThat(inFlight.count()).isEqualTo(2);
        pending.get(0).complete(new LookupResult(List.<InternalRow>of()));
        IllegalStateException gone = new IllegalStateException("tablet server gone");
        pending.get(1).completeExceptionally(gone);
        assertThat(inFlight.count()).as("answered and failed lookups leave").isZero();
        // The failure reaches the caller as Fluss gave it, not wrapped.
        assertThatThrownBy(second::get).isInstanceOf(ExecutionException.class).hasCause(gone);
        assertThat(second.handle((row, failure) -> failure).join()).isSameAs(gone);
    }

    @Test
    void aReservationIsTakenByTheThreadsLookupsAndGivesBackTheRest() {
        LookupsInFlight inFlight = new LookupsInFlight(4);
        Lookuper lookuper = inFlight.counting(fluss());
        Optional<LookupsInFlight.Reservation> room = inFlight.tryReserve(3);
        assertThat(room).isPresent();
        try (LookupsInFlight.Reservation reserved = room.get()) {
            assertThat(inFlight.count()).isEqualTo(3);
            lookuper.lookup(GenericRow.of(1));
            lookuper.lookup(GenericRow.of(2));
            assertThat(inFlight.count()).as("the lookups took reserved places").isEqualTo(3);
        }
        assertThat(inFlight.count()).as("the unused place given back").isEqualTo(2);

        try (LookupsInFlight.Reservation reserved = inFlight.tryReserve(1).orElseThrow()) {
            lookuper.lookup(GenericRow.of(3));
            // More than reserved would wait: a thread that reserved must not.
            assertThatThrownBy(() -> lookuper.lookup(GenericRow.of(4))).hasMessageContaining("reserved room");
        }
        assertThat(inFlight.count()).isEqualTo(3);
        assertThat(inFlight.tryReserve(5)).as("more than the queue holds").isEmpty();
        assertThat(pending).hasSize(3);
    }

    @Test
    void withoutAReservationALookupWaitsForAPlaceInsteadOfFlussQueue() throws Exception {
        LookupsInFlight inFlight = new LookupsInFlight(1);
        Lookuper lookuper = inFlight.counting(fluss());
        lookuper.lookup(GenericRow.of(1));
        AtomicReference<Thread> sender = new AtomicReference<>();
        CompletableFuture<CompletableFuture<LookupResult>> waiting = CompletableFuture.supplyAsync(() -> {
            sender.set(Thread.currentThread());
            return lookuper.lookup(GenericRow.of(2));
        });
        // Parked on the place, not yet in Fluss's queue.
        await().atMost(Duration.ofSeconds(10)).until(() -> sender.get() != null
                && sender.get().getState() == Thread.State.WAITING);
        assertThat(waiting).as("the second lookup waits while the queue's only place is taken")
                .isNotCompleted();
        synchronized (pending) {
            assertThat(pending).hasSize(1);
        }
        pending.get(0).complete(new LookupResult(List.<InternalRow>of()));
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isNotNull();
        assertThat(inFlight.count()).isEqualTo(1);
    }

    @Test
    void aLookupRefusedWhenSentGivesItsPlaceBack() {
        LookupsInFlight inFlight = new LookupsInFlight(4);
        Lookuper refusing = inFlight.counting(key -> {
            throw new IllegalStateException("Can not append lookup operation since the LookupQueue is closed.");
        });
        assertThatThrownBy(() -> refusing.lookup(GenericRow.of(1))).hasMessageContaining("LookupQueue is closed");
        assertThat(inFlight.count()).isZero();
    }
}
