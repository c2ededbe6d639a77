package dev.riffle.sql.exec;

import org.apache.calcite.DataContext;

/**
 * The digits below a millisecond of timestamp parameters. Avatica binds a {@code ?} timestamp as
 * milliseconds ({@code setTimestamp} keeps {@code getTime()}, not {@code getNanos()}), and that is
 * what Calcite's {@link DataContext} holds as {@code "?0"}. The {@code jdbc:riffle} prepared
 * statement keeps the {@link java.sql.Timestamp} it was given under {@link #key}{@code (0)} beside
 * it, and a value Riffle binds ({@link Bindings#value}) takes its nanoseconds from there when both
 * still name the same millisecond (a parameter bound again some other way leaves a stale one).
 *
 * <pre>{@code
 * signature.internalParameters.put(ExactParameters.key(0), Timestamp.valueOf("2024-06-01 12:00:00.123456"));
 * }</pre>
 */
public final class ExactParameters {
    private static final String PREFIX = "riffle.timestamp?";

    private ExactParameters() {}

    /** Where the timestamp given to parameter {@code index} (from 0) is kept in an execution's context. */
    public static String key(int index) {
        return PREFIX + index;
    }

    /**
     * Parameter {@code index} of this execution with every digit it was bound with: an
     * {@link ExactTimestamp} when Calcite's value is the milliseconds of a timestamp kept at
     * {@link #key}, otherwise Calcite's value as it is.
     */
    static Object value(DataContext context, int index) {
        Object calcite = context.get("?" + index);
        if (!(calcite instanceof Long millis)) {
            return calcite;
        }
        Object kept = context.get(key(index));
        if (!(kept instanceof java.sql.Timestamp timestamp)) {
            return calcite;
        }
        // Calcite's milliseconds are the wall clock in the connection's time zone; only the
        // nanoseconds come from the kept value, once it is sure to be the same one.
        ExactTimestamp bound = ExactTimestamp.ofEpochMillis(millis);
        if (bound.nanoOfSecond() / 1_000_000 != timestamp.getNanos() / 1_000_000) {
            return calcite;
        }
        return new ExactTimestamp(bound.epochSecond(), timestamp.getNanos());
    }
}
