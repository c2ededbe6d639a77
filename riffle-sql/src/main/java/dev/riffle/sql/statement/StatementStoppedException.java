package dev.riffle.sql.statement;

import static java.util.Objects.requireNonNull;

/**
 * A statement stopped before its end: it ran past its deadline, was cancelled (by its client, an
 * operator, or its client leaving), or went over one of its budgets ({@link StatementLimits}).
 * Thrown from inside execution, wherever the statement's {@link ExecutionGuard} noticed; what the
 * statement held is freed as the exception unwinds its operators.
 *
 * <pre>{@code
 * catch (SQLException e) {
 *     StatementStoppedException.in(e).ifPresent(stopped -> log(stopped.reason()));
 * }
 * }</pre>
 */
public final class StatementStoppedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why a statement stopped. */
    public enum Reason {
        /** It ran past its deadline (statement timeout, request timeout, call deadline). */
        TIMEOUT,
        /** Someone asked: its client (a cancel request), an operator, or the client leaving. */
        CANCELLED,
        /** It went over one of its budgets: rows its joins produced, groups or rows it held. */
        BUDGET
    }

    private final Reason reason;

    public StatementStoppedException(Reason reason, String message) {
        super(requireNonNull(message, "message is null"));
        this.reason = requireNonNull(reason, "reason is null");
    }

    /** A copy to throw on another thread (this one's stack says where it was noticed first). */
    StatementStoppedException again() {
        StatementStoppedException copy = new StatementStoppedException(reason, getMessage());
        copy.initCause(this);
        return copy;
    }

    public Reason reason() {
        return reason;
    }

    /** The stop among {@code failure} and its causes, when the failure is one. */
    public static java.util.Optional<StatementStoppedException> in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof StatementStoppedException stopped) {
                return java.util.Optional.of(stopped);
            }
        }
        return java.util.Optional.empty();
    }
}
