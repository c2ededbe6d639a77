package dev.riffle.gateway.rows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.gateway.http.ApiException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class IdempotentWritesTest {
    private static final IdempotentWrites.Scope SCOPE = new IdempotentWrites.Scope(Optional.empty(), "db.t");
    private static final byte[] BODY = {1, 2, 3};
    private static final IdempotentWrites.Answer OK =
            new IdempotentWrites.Answer(200, "{\"written\":3}".getBytes(StandardCharsets.UTF_8));

    private final AtomicLong now = new AtomicLong();
    private final IdempotentWrites writes = new IdempotentWrites(now::get);

    @Test
    void theFirstRequestWritesAndLaterOnesGetItsAnswer() throws Exception {
        IdempotentWrites.Claim first = writes.claim(SCOPE, "k", BODY, Duration.ZERO);
        assertThat(first).isInstanceOf(IdempotentWrites.Writes.class);
        writes.answered((IdempotentWrites.Writes) first, OK);
        assertThat(writes.claim(SCOPE, "k", BODY, Duration.ZERO)).isEqualTo(new IdempotentWrites.Replay(OK));
        // Another caller's or another table's key of the same name is another key.
        assertThat(writes.claim(new IdempotentWrites.Scope(Optional.of("alice"), "db.t"), "k", BODY, Duration.ZERO))
                .isInstanceOf(IdempotentWrites.Writes.class);
        assertThat(writes.claim(new IdempotentWrites.Scope(Optional.empty(), "db.u"), "k", BODY, Duration.ZERO))
                .isInstanceOf(IdempotentWrites.Writes.class);
    }

    @Test
    void anotherBodyUnderTheKeyIsRefused() throws Exception {
        writes.claim(SCOPE, "k", BODY, Duration.ZERO);
        assertThatThrownBy(() -> writes.claim(SCOPE, "k", new byte[] {9}, Duration.ZERO))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(422));
    }

    @Test
    void aRequestArrivingWhileTheFirstWritesWaitsForItsAnswer() throws Exception {
        IdempotentWrites.Writes first = (IdempotentWrites.Writes) writes.claim(SCOPE, "k", BODY, Duration.ZERO);
        IdempotentWrites realClock = new IdempotentWrites();
        IdempotentWrites.Writes mine = (IdempotentWrites.Writes) realClock.claim(SCOPE, "k", BODY, Duration.ZERO);
        CompletableFuture<IdempotentWrites.Claim> second = CompletableFuture.supplyAsync(() -> {
            try {
                return realClock.claim(SCOPE, "k", BODY, Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(second).isNotDone();
        realClock.answered(mine, OK);
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo(new IdempotentWrites.Replay(OK));

        // Still writing after the wait: 409, the key stays taken.
        assertThatThrownBy(() -> writes.claim(SCOPE, "k", BODY, Duration.ZERO))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409));
        writes.forget(first);
        assertThat(writes.claim(SCOPE, "k", BODY, Duration.ZERO)).isInstanceOf(IdempotentWrites.Writes.class);
    }

    @Test
    void answersAreKeptForTheRetentionAndWritingOnesAreNeverDropped() throws Exception {
        IdempotentWrites.Writes answered = (IdempotentWrites.Writes) writes.claim(SCOPE, "a", BODY, Duration.ZERO);
        writes.answered(answered, OK);
        IdempotentWrites.Writes writing = (IdempotentWrites.Writes) writes.claim(SCOPE, "w", BODY, Duration.ZERO);
        now.addAndGet(IdempotentWrites.RETENTION.toNanos() - 1);
        assertThat(writes.size()).isEqualTo(2);
        now.addAndGet(2);
        assertThat(writes.size()).as("the answered key expired, the writing one stays").isEqualTo(1);
        assertThat(writes.claim(SCOPE, "a", new byte[] {7}, Duration.ZERO)).isInstanceOf(IdempotentWrites.Writes.class);
        writes.answered(writing, OK);
        assertThat(writes.claim(SCOPE, "w", BODY, Duration.ZERO)).isEqualTo(new IdempotentWrites.Replay(OK));
    }

    @Test
    void keysArePrintableAsciiOfBoundedLength() {
        assertThat(IdempotentWrites.checkedKey("2026-12-03/batch-17")).isEqualTo("2026-12-03/batch-17");
        for (String bad : new String[] {"", "two words", "é", "x".repeat(201)}) {
            assertThatThrownBy(() -> IdempotentWrites.checkedKey(bad)).as(bad).isInstanceOf(ApiException.class);
        }
    }
}
