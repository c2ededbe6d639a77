package dev.riffle.sql.exec;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.Optional;
import org.apache.calcite.util.TimestampString;

/**
 * A timestamp to the nanosecond, in the numbers Calcite's milliseconds extend: seconds since
 * 1970-01-01 00:00:00 of the wall clock for {@code TIMESTAMP}, of UTC for
 * {@code TIMESTAMP_LTZ}, and the nanoseconds within that second. Calcite's row engine and its
 * {@code DataContext} hold a timestamp as a {@code long} of milliseconds; this is what a literal
 * ({@link TimestampString}) or a bound parameter is before that cut.
 *
 * <pre>{@code
 * ExactTimestamp ts = ExactTimestamp.of(new TimestampString("2024-06-01 12:00:00.1234567")).orElseThrow();
 * ts.truncatedTo(6);   // 12:00:00.123456
 * ts.digits();         // 7
 * }</pre>
 *
 * @param nanoOfSecond 0 to 999,999,999 (before 1970 too: the seconds round down)
 */
record ExactTimestamp(long epochSecond, int nanoOfSecond) {
    private static final int[] POWERS = {1_000_000_000, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000,
        100, 10, 1};

    ExactTimestamp {
        if (nanoOfSecond < 0 || nanoOfSecond > 999_999_999) {
            throw new IllegalArgumentException("nanoOfSecond must be 0 to 999,999,999, got " + nanoOfSecond);
        }
    }

    /**
     * The timestamp a Calcite value stands for: a literal's {@link TimestampString}, a
     * {@link LocalDateTime} or {@link java.sql.Timestamp} (a parameter as bound: its wall clock), an
     * {@link Instant} or {@link OffsetDateTime}, a {@link Calendar}, or Calcite's {@code long}
     * milliseconds; empty for anything else.
     */
    static Optional<ExactTimestamp> of(Object value) {
        if (value instanceof ExactTimestamp exact) {
            return Optional.of(exact);
        }
        if (value instanceof TimestampString literal) {
            return Optional.of(of(LocalDateTime.parse(literal.toString().replace(' ', 'T'))));
        }
        if (value instanceof LocalDateTime dateTime) {
            return Optional.of(of(dateTime));
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            // its wall clock in the JVM's zone, as JDBC's setTimestamp binds it (Avatica's milliseconds are that
            // wall clock), so a value bound through a statement and one handed to a DirectRead agree
            return Optional.of(of(timestamp.toLocalDateTime()));
        }
        if (value instanceof Instant instant) {
            return Optional.of(new ExactTimestamp(instant.getEpochSecond(), instant.getNano()));
        }
        if (value instanceof OffsetDateTime dateTime) {
            return of(dateTime.toInstant());
        }
        if (value instanceof Calendar calendar) {
            return Optional.of(ofEpochMillis(calendar.getTimeInMillis()));
        }
        if (value instanceof Long || value instanceof Integer) {
            return Optional.of(ofEpochMillis(((Number) value).longValue()));
        }
        return Optional.empty();
    }

    static ExactTimestamp ofEpochMillis(long millis) {
        return new ExactTimestamp(Math.floorDiv(millis, 1_000L), (int) Math.floorMod(millis, 1_000L) * 1_000_000);
    }

    private static ExactTimestamp of(LocalDateTime dateTime) {
        return new ExactTimestamp(dateTime.toEpochSecond(ZoneOffset.UTC), dateTime.getNano());
    }

    /** Milliseconds since the epoch, as Calcite holds the value (the digits below a millisecond cut). */
    long epochMillis() {
        return epochSecond * 1_000L + nanoOfSecond / 1_000_000;
    }

    /** How many fractional digits the value needs (0 to 9): 7 for {@code 12:00:00.1234567}. */
    int digits() {
        for (int digits = 0; digits < 9; digits++) {
            if (nanoOfSecond % POWERS[digits] == 0) {
                return digits;
            }
        }
        return 9;
    }

    /** The value with at most {@code precision} fractional digits: the others are cut, as a cast cuts them. */
    ExactTimestamp truncatedTo(int precision) {
        int unit = POWERS[Math.max(0, Math.min(9, precision))];
        return new ExactTimestamp(epochSecond, nanoOfSecond - nanoOfSecond % unit);
    }
}
