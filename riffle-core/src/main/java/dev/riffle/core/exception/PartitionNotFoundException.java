package dev.riffle.core.exception;

/** A read named a partition (or a bucket) the table does not have; the message lists those it has. */
public final class PartitionNotFoundException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public PartitionNotFoundException(String message) {
        super(message);
    }
}
