package dev.riffle.flight.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.ByteString;
import dev.riffle.sql.statement.LookedUpRows;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LookupsAheadTest {
    private final AtomicLong now = new AtomicLong();
    private final LookupsAhead ahead = new LookupsAhead(3, Duration.ofSeconds(30), now::get);

    private static ByteString ticket(String name) {
        return ByteString.copyFromUtf8(name);
    }

    @Test
    void aKeptLookupIsHandedOutOnceToItsTicket() {
        CompletableFuture<LookedUpRows> answer = new CompletableFuture<>();
        assertThat(ahead.offer(ticket("a"), answer)).isTrue();

        assertThat(ahead.take(ticket("b"))).isEmpty();
        assertThat(ahead.take(ticket("a"))).containsSame(answer);
        assertThat(ahead.take(ticket("a"))).isEmpty();
        assertThat(ahead.size()).isZero();
    }

    @Test
    void aLaterLookupOfTheSameTicketReplacesTheEarlierOne() {
        CompletableFuture<LookedUpRows> first = new CompletableFuture<>();
        CompletableFuture<LookedUpRows> second = new CompletableFuture<>();
        ahead.offer(ticket("a"), first);
        ahead.offer(ticket("a"), second);

        assertThat(ahead.size()).isEqualTo(1);
        assertThat(ahead.discard(ticket("a"), first)).isFalse(); // replaced: the later one stays
        assertThat(ahead.take(ticket("a"))).containsSame(second);
    }

    @Test
    void noMoreThanCapacityAreKeptAndExpiredOnesMakeRoom() {
        assertThat(ahead.offer(ticket("a"), new CompletableFuture<>())).isTrue();
        now.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(ahead.offer(ticket("b"), new CompletableFuture<>())).isTrue();
        assertThat(ahead.offer(ticket("c"), new CompletableFuture<>())).isTrue();
        assertThat(ahead.offer(ticket("d"), new CompletableFuture<>())).isFalse();
        assertThat(ahead.take(ticket("d"))).isEmpty();

        // "a" was offered 30 s ago: it is gone, and its place is free again.
        now.addAndGet(Duration.ofSeconds(20).toNanos());
        assertThat(ahead.take(ticket("a"))).isEmpty();
        assertThat(ahead.offer(ticket("d"), new CompletableFuture<>())).isTrue();
        assertThat(ahead.size()).isEqualTo(3);

        now.addAndGet(Duration.ofSeconds(30).toNanos());
        assertThat(ahead.size()).isZero();
    }

    @Test
    void aDiscardedLookupIsNotHandedOut() {
        CompletableFuture<LookedUpRows> answer = new CompletableFuture<>();
        ahead.offer(ticket("a"), answer);
        assertThat(ahead.discard(ticket("a"), answer)).isTrue();
        assertThat(ahead.take(ticket("a"))).isEmpty();

        ahead.offer(ticket("b"), answer);
        assertThat(ahead.discard(ticket("b"))).isTrue();
        assertThat(ahead.discard(ticket("b"))).isFalse();
        assertThat(ahead.take(ticket("b"))).isEmpty();
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LookupsAhead(0, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new LookupsAhead(1, Duration.ZERO));
        assertThrows(NullPointerException.class, () -> ahead.offer(ticket("a"), null));
    }
}
