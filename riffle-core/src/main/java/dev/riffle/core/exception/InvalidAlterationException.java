package dev.riffle.core.exception;

/**
 * An {@code ALTER TABLE} that Fluss would refuse, caught before it is sent (a column added as
 * NOT NULL, no change at all); the message names the change and what would be accepted.
 */
public final class InvalidAlterationException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidAlterationException(String message) {
        super(message);
    }
}
