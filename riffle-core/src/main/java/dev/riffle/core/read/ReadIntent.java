package dev.riffle.core.read;

/**
 * What a read asks of a table; the read façade ({@link ReadBuilder}) picks the reader for it.
 *
 * <pre>{@code
 * riffle.table("shop.orders").read()               // CURRENT
 * riffle.table("shop.orders").read().changelog()   // CHANGELOG
 * }</pre>
 */
public enum ReadIntent {
    /**
     * The table's rows as they are now: a datalake-enabled table's lake snapshot plus the log past
     * it; a primary-key table's rows by key; a log table's log.
     */
    CURRENT,
    /** A log table's log between a start and a stop (never the lake). */
    LOG,
    /** Every change between a start and a stop, with {@code _change_type}, {@code _log_offset}, {@code _commit_timestamp}. */
    CHANGELOG,
    /** A datalake-enabled table's lake snapshot alone. */
    LAKE
}
