package dev.riffle.lake.tiering;

import org.apache.fluss.metadata.TablePath;

/**
 * The coordinator took the table back during the round (its lease was fenced, or the service is
 * closing): the round stops before committing, and the coordinator hands the table out again.
 */
final class LeaseLostException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LeaseLostException(TablePath table) {
        super("The coordinator took " + table + " back during the round");
    }
}
