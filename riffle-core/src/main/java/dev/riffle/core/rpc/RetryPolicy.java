package dev.riffle.core.rpc;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an RPC that Riffle sends itself is retried: up to {@code attempts} tries, each failure that
 * {@code retriable} accepts followed by a metadata refresh and a backoff that doubles from
 * {@code firstBackoff} up to {@code maxBackoff}. Anything else, and the last failure, reach the
 * caller unchanged.
 *
 * <pre>{@code
 * String path = RetryPolicy.DEFAULT.call("prepare the lake snapshot of shop.orders",
 *         () -> gateway.prepareLakeTableSnapshot(request).get(60, SECONDS),
 *         FlussErrors::isRetriable, metadata::refresh);
 * }</pre>
 *
 * @param attempts tries in all, at least 1
 */
public record RetryPolicy(int attempts, Duration firstBackoff, Duration maxBackoff) {
    private static final Logger LOG = LoggerFactory.getLogger(RetryPolicy.class);

    /** Five tries over about three seconds: long enough for a coordinator or leader to fail over. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(5, Duration.ofMillis(200), Duration.ofSeconds(2));

    public RetryPolicy {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
        }
        requireNonNull(firstBackoff, "firstBackoff is null");
        requireNonNull(maxBackoff, "maxBackoff is null");
        if (firstBackoff.isNegative() || maxBackoff.compareTo(firstBackoff) < 0) {
            throw new IllegalArgumentException("backoffs must satisfy 0 <= first <= max, got " + firstBackoff
                    + " and " + maxBackoff);
        }
    }

    /** The wait after {@code backoff}: twice as long, at most {@link #maxBackoff}. */
    public Duration nextBackoff(Duration backoff) {
        Duration doubled = backoff.multipliedBy(2);
        return doubled.compareTo(maxBackoff) > 0 ? maxBackoff : doubled;
    }

    /** What runs before a retry; may fail. */
    @FunctionalInterface
    public interface Refresh {
        void run() throws Exception;
    }

    /**
     * Runs {@code call} until it succeeds, fails in a way {@code retriable} rejects, or the
     * attempts are used up.
     *
     * @param what what the call does, for the log
     * @param refresh what to do before a retry (refresh the metadata the call routes by); its own
     *     failure is logged and the retry goes ahead
     */
    public <T> T call(String what, Callable<T> call, Predicate<Throwable> retriable, Refresh refresh)
            throws Exception {
        requireNonNull(what, "what is null");
        requireNonNull(call, "call is null");
        requireNonNull(retriable, "retriable is null");
        requireNonNull(refresh, "refresh is null");
        Duration backoff = firstBackoff;
        for (int attempt = 1; ; attempt++) {
            try {
                return call.call();
            } catch (Exception e) {
                if (attempt >= attempts || !retriable.test(e)) {
                    throw e;
                }
                LOG.info("Could not {} (attempt {} of {}): {}; retrying in {} ms with fresh metadata", what, attempt,
                        attempts, FlussErrors.unwrap(e).toString(), backoff.toMillis());
                Thread.sleep(backoff.toMillis());
                try {
                    refresh.run();
                } catch (Exception refreshFailed) {
                    LOG.debug("Metadata refresh before retrying to {} failed", what, refreshFailed);
                }
                backoff = nextBackoff(backoff);
            }
        }
    }
}
