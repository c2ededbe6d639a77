package dev.riffle.core.log;

/**
 * Where log bytes come from, which decides whether their CRCs can be checked.
 *
 * <p>A tablet server that projects columns for a FetchLog request (projection pushdown) rewrites
 * each batch's length, statistics length, Arrow metadata and body, but keeps the CRC the writer
 * computed over the unprojected batch (Fluss 0.9.1 and 1.0 {@code FileLogProjection}). The Fluss
 * client skips its CRC check for such responses for that reason, and so does Riffle.
 */
public enum LogBytesSource {
    /**
     * Batches as their writer built them: an unprojected FetchLog response, a local or remote log
     * segment. Every batch's CRC is verified.
     */
    AS_WRITTEN(true),
    /**
     * Batches a tablet server rewrote for a projected FetchLog request. Their CRCs describe bytes
     * that were never sent, so they are not checked; the header is still checked for consistency.
     */
    SERVER_PROJECTED(false);

    private final boolean crcVerifiable;

    LogBytesSource(boolean crcVerifiable) {
        this.crcVerifiable = crcVerifiable;
    }

    /** Whether the batches still carry the CRC of their own bytes. */
    public boolean crcVerifiable() {
        return crcVerifiable;
    }
}
