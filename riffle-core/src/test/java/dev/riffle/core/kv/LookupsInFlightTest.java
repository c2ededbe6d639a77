package dev.riffle.core.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.fluss.client.lookup.LookupResult;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.junit.jupiter.api.Test;

/** Lookups count from sending until answered, failed or refused, and room is half the queue. */
class LookupsInFlightTest {

    @Test
    void countsEachLookupUntilItsAnswerAndLeavesHalfTheQueueAsRoom() {
        List<CompletableFuture<LookupResult>> pending = new ArrayList<>();
        LookupsInFlight inFlight = new LookupsInFlight(6);
        Lookuper lookuper = inFlight.counting(key -> {
            CompletableFuture<LookupResult> answer = new CompletableFuture<>();
            pending.add(answer);
            return answer;
        });

        lookuper.lookup(GenericRow.of(1));
        lookuper.lookup(GenericRow.of(2));
        assertThat(inFlight.count()).isEqualTo(2);
        assertThat(inFlight.hasRoom()).isTrue();
        lookuper.lookup(GenericRow.of(3));
        assertThat(inFlight.hasRoom()).as("three in flight of a queue of six").isFalse();

        pending.get(0).complete(new LookupResult(List.<InternalRow>of()));
        pending.get(1).completeExceptionally(new IllegalStateException("tablet server gone"));
        assertThat(inFlight.count()).as("answered and failed lookups are no longer in flight").isEqualTo(1);
        assertThat(inFlight.hasRoom()).isTrue();
        pending.get(2).cancel(true);
        assertThat(inFlight.count()).isZero();
    }

    @Test
    void aLookupRefusedWhenSentIsNotCounted() {
        LookupsInFlight inFlight = new LookupsInFlight(4);
        Lookuper refusing = inFlight.counting(key -> {
            throw new IllegalStateException("Can not append lookup operation since the LookupQueue is closed.");
        });
        assertThatThrownBy(() -> refusing.lookup(GenericRow.of(1))).hasMessageContaining("LookupQueue is closed");
        assertThat(inFlight.count()).isZero();
        assertThat(new LookupsInFlight(1).hasRoom()).as("a queue of one leaves no room").isFalse();
    }
}
