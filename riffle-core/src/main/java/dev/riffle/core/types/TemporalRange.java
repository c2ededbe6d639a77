package dev.riffle.core.types;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * The dates and times Riffle writes: years 0001 to 9999 (SQL's range, and what every reader of a
 * Fluss or Paimon table can show), and for timestamps of precision 7 to 9 also what Arrow's
 * nanoseconds since 1970 can count (1677-09-21 to 2262-04-11), since Fluss stores those in Arrow.
 * A value outside is refused when it is written, not overflowed into another instant.
 *
 * <pre>{@code
 * TemporalRange.timestamp(LocalDateTime.parse("+999999999-12-31T23:59:59"), 3)
 *         .ifPresent(problem -> { throw new InvalidValueException(problem); });
 * }</pre>
 */
public final class TemporalRange {
    public static final LocalDate MIN_DATE = LocalDate.of(1, 1, 1);
    public static final LocalDate MAX_DATE = LocalDate.of(9999, 12, 31);
    private static final LocalDateTime MIN = MIN_DATE.atStartOfDay();
    private static final LocalDateTime MAX = MAX_DATE.atTime(23, 59, 59, 999_999_999);
    private static final Instant MIN_NANOS = Instant.ofEpochSecond(0, Long.MIN_VALUE);
    private static final Instant MAX_NANOS = Instant.ofEpochSecond(0, Long.MAX_VALUE);

    private TemporalRange() {}

    /** Why {@code date} cannot be written, if it cannot. */
    public static Optional<String> date(LocalDate date) {
        return date.isBefore(MIN_DATE) || date.isAfter(MAX_DATE)
                ? Optional.of(date + " is outside the dates Riffle writes (" + MIN_DATE + " to " + MAX_DATE + ")")
                : Optional.empty();
    }

    /** Why {@code date}, as days since 1970-01-01, cannot be written, if it cannot. */
    public static Optional<String> epochDay(long epochDay) {
        if (epochDay < MIN_DATE.toEpochDay() || epochDay > MAX_DATE.toEpochDay()) {
            return Optional.of("day " + epochDay + " since 1970-01-01 is outside the dates Riffle writes ("
                    + MIN_DATE + " to " + MAX_DATE + ")");
        }
        return Optional.empty();
    }

    /** Why a timestamp of {@code precision} cannot hold {@code value}, if it cannot. */
    public static Optional<String> timestamp(LocalDateTime value, int precision) {
        if (value.isBefore(MIN) || value.isAfter(MAX)) {
            return Optional.of(value + " is outside the timestamps Riffle writes (years 0001 to 9999)");
        }
        return nanos(value.toInstant(ZoneOffset.UTC), precision, value.toString());
    }

    /** Why a timestamp with local time zone of {@code precision} cannot hold {@code value}, if it cannot. */
    public static Optional<String> instant(Instant value, int precision) {
        if (value.isBefore(MIN.toInstant(ZoneOffset.UTC)) || value.isAfter(MAX.toInstant(ZoneOffset.UTC))) {
            return Optional.of(value + " is outside the timestamps Riffle writes (years 0001 to 9999)");
        }
        return nanos(value, precision, value.toString());
    }

    /** Why {@code epochMillis} cannot be a timestamp of {@code precision}, if it cannot. */
    public static Optional<String> epochMillis(long epochMillis, int precision) {
        return instant(Instant.ofEpochMilli(epochMillis), precision)
                .map(problem -> epochMillis + " ms since 1970 (" + problem + ")");
    }

    private static Optional<String> nanos(Instant value, int precision, String shown) {
        if (precision > 6 && (value.isBefore(MIN_NANOS) || value.isAfter(MAX_NANOS))) {
            return Optional.of(shown + " is outside what a timestamp of precision " + precision
                    + " holds (nanoseconds since 1970: " + MIN_NANOS + " to " + MAX_NANOS + ")");
        }
        return Optional.empty();
    }
}
