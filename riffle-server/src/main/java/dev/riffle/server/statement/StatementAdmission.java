package dev.riffle.server.statement;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How many SQL statements a server runs at once: at most {@code maxRunning} in all and
 * {@code maxRunningPerPrincipal} of one authenticated principal; the rest wait, at most
 * {@code maxQueued} of them and each at most {@code queueTimeout} (or until its own deadline),
 * then fail as busy. Key lookups (a statement whose access path is a point or prefix lookup) and
 * metadata calls never wait here, so running analytics cannot starve them of a place.
 *
 * <pre>{@code
 * StatementAdmission admission = StatementAdmission.DEFAULT.withMaxRunning(4);
 * }</pre>
 */
public record StatementAdmission(int maxRunning, int maxRunningPerPrincipal, int maxQueued, Duration queueTimeout) {
    /**
     * As many statements at once as the machine has cores (at least two), half of them for one
     * principal, 64 waiting, each at most a minute.
     */
    public static final StatementAdmission DEFAULT = defaults(Runtime.getRuntime().availableProcessors());

    public StatementAdmission {
        if (maxRunning < 1 || maxRunningPerPrincipal < 1 || maxQueued < 0) {
            throw new IllegalArgumentException("maxRunning and maxRunningPerPrincipal must be at least 1 and maxQueued"
                    + " at least 0, got " + maxRunning + ", " + maxRunningPerPrincipal + ", " + maxQueued);
        }
        requireNonNull(queueTimeout, "queueTimeout is null");
        if (queueTimeout.isNegative()) {
            throw new IllegalArgumentException("queueTimeout must not be negative, got " + queueTimeout);
        }
    }

    /** The defaults for a machine of {@code cores} cores. */
    static StatementAdmission defaults(int cores) {
        int running = Math.max(2, cores);
        return new StatementAdmission(running, Math.max(1, running / 2), 64, Duration.ofMinutes(1));
    }

    public StatementAdmission withMaxRunning(int statements) {
        return new StatementAdmission(statements, Math.min(maxRunningPerPrincipal, statements), maxQueued, queueTimeout);
    }

    public StatementAdmission withMaxRunningPerPrincipal(int statements) {
        return new StatementAdmission(maxRunning, statements, maxQueued, queueTimeout);
    }

    public StatementAdmission withMaxQueued(int statements) {
        return new StatementAdmission(maxRunning, maxRunningPerPrincipal, statements, queueTimeout);
    }

    public StatementAdmission withQueueTimeout(Duration timeout) {
        return new StatementAdmission(maxRunning, maxRunningPerPrincipal, maxQueued, timeout);
    }
}
