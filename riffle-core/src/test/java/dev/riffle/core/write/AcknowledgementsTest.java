package dev.riffle.core.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AcknowledgementsTest {

    @Test
    void completesOnlyOnceEveryAcknowledgementHas() {
        Acknowledgements acks = new Acknowledgements();
        List<CompletableFuture<String>> rows = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            CompletableFuture<String> row = new CompletableFuture<>();
            rows.add(row);
            acks.add(row);
        }
        CompletableFuture<Void> all = acks.all();
        rows.get(2).complete("c");
        rows.get(0).complete("a");
        assertThat(all).isNotDone();
        rows.get(1).complete("b");
        assertThat(all).isCompleted();
        assertThat(acks.count()).isEqualTo(3);
    }

    @Test
    void aFailureIsReportedOnlyOnceTheOtherRowsAreNoLongerInFlight() {
        Acknowledgements acks = new Acknowledgements();
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> second = new CompletableFuture<>();
        CompletableFuture<String> third = new CompletableFuture<>();
        acks.add(first);
        acks.add(second);
        acks.add(third);
        CompletableFuture<Void> all = acks.all();
        second.completeExceptionally(new IllegalStateException("bucket 2 lost its leader"));
        third.completeExceptionally(new IllegalStateException("a later failure"));
        assertThat(all).isNotDone();
        first.complete("a");
        assertThatThrownBy(all::get).isInstanceOf(ExecutionException.class)
                .hasRootCauseMessage("bucket 2 lost its leader");
    }

    @Test
    void acknowledgementsAlreadyCompleteAndNoneAtAll() {
        Acknowledgements none = new Acknowledgements();
        assertThat(none.all()).isCompleted();
        Acknowledgements done = new Acknowledgements();
        done.add(CompletableFuture.completedFuture(1));
        assertThat(done.all()).isCompleted();
        assertThat(done.all()).isSameAs(done.all());
    }

    @Test
    void noAcknowledgementMayBeAddedOnceAllWasAskedFor() {
        Acknowledgements acks = new Acknowledgements();
        acks.all();
        assertThatThrownBy(() -> acks.add(new CompletableFuture<>())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("after all()");
    }

    @Test
    void acknowledgementsCompletingOnOtherThreadsWhileRowsAreAdded() throws Exception {
        ExecutorService network = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 50; round++) {
                Acknowledgements acks = new Acknowledgements();
                List<CompletableFuture<Integer>> rows = new ArrayList<>();
                for (int i = 0; i < 2_000; i++) {
                    CompletableFuture<Integer> row = new CompletableFuture<>();
                    rows.add(row);
                    int value = i;
                    network.execute(() -> row.complete(value));
                    acks.add(row);
                }
                acks.all().get(10, TimeUnit.SECONDS);
                assertThat(rows).allMatch(CompletableFuture::isDone);
            }
        } finally {
            network.shutdownNow();
        }
    }
}
