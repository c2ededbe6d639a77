package dev.riffle.server.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Open connections are counted by owner; a closed one counts once, an owner with none drops out. */
class FlussConnectionsTest {

    @Test
    void countsByOwnerAndForgetsOwnersWithNone() {
        FlussConnections connections = new FlussConnections();
        FlussConnections.Held server = connections.opened(FlussConnections.SERVER);
        FlussConnections.Held alice = connections.opened("alice");
        FlussConnections.Held aliceAgain = connections.opened("alice");
        assertThat(connections.byOwner()).containsExactly(Map.entry("alice", 2), Map.entry("server", 1));
        assertThat(connections.total()).isEqualTo(3);

        alice.close();
        alice.close(); // closing twice counts once
        assertThat(connections.byOwner()).containsExactly(Map.entry("alice", 1), Map.entry("server", 1));
        aliceAgain.close();
        server.close();
        assertThat(connections.byOwner()).isEmpty();
        assertThat(connections.total()).isZero();
    }

    @Test
    void opensAndClosesFromManyThreadsAddUp() throws Exception {
        FlussConnections connections = new FlussConnections();
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(threads.submit(() -> {
                    for (int i = 0; i < 10_000; i++) {
                        connections.opened("alice").close();
                    }
                    connections.opened("alice"); // each thread leaves one open
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            threads.shutdown();
        }
        assertThat(connections.byOwner()).containsExactly(Map.entry("alice", 4));
    }
}
