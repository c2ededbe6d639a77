package dev.riffle.lake.tiering;

/**
 * The table a lease names was dropped and a new one created at its path: the lease is for the old
 * one, so the round tiers nothing and the lease is reported failed.
 */
final class TableRecreatedException extends Exception {
    private static final long serialVersionUID = 1L;

    TableRecreatedException(String message) {
        super(message);
    }
}
