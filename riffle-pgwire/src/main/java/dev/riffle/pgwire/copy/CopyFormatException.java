package dev.riffle.pgwire.copy;

/**
 * COPY data that is not well-formed in its format (an unterminated quoted CSV field, too few or
 * too many fields): SQLSTATE 22P04, bad_copy_file_format. The message names the line.
 */
public final class CopyFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public CopyFormatException(String message) {
        super(message);
    }
}
