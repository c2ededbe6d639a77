package dev.riffle.core.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
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
    void aFailedWriteSaysHowManyRowsAreWrittenAndHowManyMayBe() {
        Acknowledgements acks = new Acknowledgements();
        acks.add(CompletableFuture.completedFuture(null));
        acks.add(CompletableFuture.completedFuture(null), 4); // batches of four rows, acknowledged together
        acks.add(CompletableFuture.failedFuture(new IllegalStateException("bucket 1 lost its leader")), 3);
        assertThat(acks.count()).isEqualTo(8);
        assertThatThrownBy(() -> acks.await(Duration.ofSeconds(5), "rows written to shop.orders"))
                .isInstanceOfSatisfying(WriteNotAcknowledgedException.class, e -> {
                    assertThat(e.acknowledged()).isEqualTo(5);
                    assertThat(e.uncertain()).isEqualTo(3);
                })
                .hasMessage("Fluss rejected 3 of the 8 rows written to shop.orders (bucket 1 lost its leader): those"
                        + " may or may not be written; the other 5 were written");

        Acknowledgements unanswered = new Acknowledgements();
        unanswered.add(CompletableFuture.completedFuture(null), 2);
        unanswered.add(new CompletableFuture<>());
        assertThatThrownBy(() -> unanswered.await(Duration.ofMillis(50), "rows written to shop.orders"))
                .isInstanceOfSatisfying(WriteNotAcknowledgedException.class, e -> {
                    assertThat(e.acknowledged()).isZero();
                    assertThat(e.uncertain()).isEqualTo(3);
                })
                .hasMessageContaining("did not acknowledge the 3 rows written to shop.orders");

        Acknowledgements written = new Acknowledgements();
        written.add(CompletableFuture.completedFuture(null), 1_000);
        assertThat(written.await(Duration.ofSeconds(5), "rows")).isEqualTo(1_000);
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
