package dev.riffle.lake.tiering;

/** A round that found and registered a lake snapshot a crashed round left behind; it tiers nothing itself. */
final class MissingSnapshotRecoveredException extends Exception {
    private static final long serialVersionUID = 1L;

    MissingSnapshotRecoveredException(String message) {
        super(message);
    }
}
