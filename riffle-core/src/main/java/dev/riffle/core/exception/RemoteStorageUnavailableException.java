package dev.riffle.core.exception;

/**
 * A read needed log segments that Fluss has moved to its remote storage ({@code remote.data.dir}:
 * S3, HDFS, a shared file system) and could not read them: the store did not answer, refused the
 * credentials, or has no file system plugin here. Nothing was returned short; the message names
 * the segment and the store's own error, and asking again helps once the store is back.
 */
public final class RemoteStorageUnavailableException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public RemoteStorageUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
