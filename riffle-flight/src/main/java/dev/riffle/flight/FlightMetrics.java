package dev.riffle.flight;

import static java.util.Objects.requireNonNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Per-command metrics of the Flight SQL server in the process's registry (the gateway's
 * {@code /metrics} shows them): {@code riffle_flight_calls_seconds{command, outcome}},
 * {@code riffle_flight_rows_total{command}}, and {@code riffle_flight_stored_batches_total}: the
 * batches DoGets sent as Fluss stored them, without decoding them.
 */
final class FlightMetrics {
    private final MeterRegistry registry;

    FlightMetrics(MeterRegistry registry) {
        this.registry = requireNonNull(registry, "registry is null");
    }

    void record(String command, long startedNanos, boolean ok, long rows) {
        Timer.builder("riffle_flight_calls").tag("command", command).tag("outcome", ok ? "ok" : "error")
                .register(registry).record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
        if (rows > 0) {
            Counter.builder("riffle_flight_rows").tag("command", command).register(registry).increment(rows);
        }
    }

    void storedBatches(long batches) {
        if (batches > 0) {
            Counter.builder("riffle_flight_stored_batches").register(registry).increment(batches);
        }
    }

    <T> T time(String command, Supplier<T> body) {
        long started = System.nanoTime();
        try {
            T result = body.get();
            record(command, started, true, result instanceof Long rows ? rows : 0);
            return result;
        } catch (RuntimeException e) {
            record(command, started, false, 0);
            throw e;
        }
    }
}
