package dev.riffle.gateway.scan;

import java.util.Locale;

/** What a scan reads ({@code "source"} in the request), as {@code riffle read --source} does. */
enum ScanSource {
    /** The lake snapshot plus the Fluss log past it: every current row once (datalake-enabled tables). */
    UNION,
    /** The Fluss log (a primary-key table's changelog) over a range of offsets, a page at a time. */
    LOG,
    /** The lake snapshot alone. */
    LAKE,
    /**
     * A primary-key table's current rows from Fluss alone: each bucket's KV snapshot with the
     * changelog after it (the default for primary-key tables without a lake).
     */
    CURRENT;

    /** As the request and the answer spell it. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
