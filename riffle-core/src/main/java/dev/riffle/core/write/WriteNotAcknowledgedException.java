package dev.riffle.core.write;

/**
 * Fluss did not acknowledge every row of a write ({@link Acknowledgements#await}): some rows were
 * rejected, or no answer came in time. Fluss has no rollback, so the message says what is known: how many rows
 * Fluss acknowledged (written) and how many may or may not be written.
 */
public final class WriteNotAcknowledgedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final long acknowledged;
    private final long uncertain;

    WriteNotAcknowledgedException(String message, long acknowledged, long uncertain, Throwable cause) {
        super(message, cause);
        this.acknowledged = acknowledged;
        this.uncertain = uncertain;
    }

    /** The rows Fluss acknowledged: written. */
    public long acknowledged() {
        return acknowledged;
    }

    /** The rows without an acknowledgement: they may or may not be written. */
    public long uncertain() {
        return uncertain;
    }
}
