package dev.riffle.pgwire.types;

/**
 * A bound parameter whose bytes are not a value of its type (SQLSTATE 22P02,
 * invalid_text_representation): the message names the parameter, its type and what was sent.
 */
public final class InvalidParameterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidParameterException(String message) {
        super(message);
    }
}
