package dev.riffle.core.types;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.TimeUnit;

/**
 * Riffle's one place for time units: how a Fluss time or timestamp of a precision is counted in
 * Arrow (which unit, computed as Fluss's own Arrow writers compute it), and how such a count
 * splits back into seconds and nanoseconds. Writers ({@link RowArrowWriter}), readers
 * ({@code dev.riffle.core.values.ArrowValueReader}) and the type mapping use it, so a value
 * reads the same from a log batch as from a row.
 *
 * <pre>{@code
 * EpochUnits micros = EpochUnits.of(TimeUnit.MICROSECOND);
 * long count = micros.count(epochMillisecond, nanoOfMillisecond);
 * long seconds = micros.epochSecond(count);
 * int nanos = micros.nanoOfSecond(count);
 * }</pre>
 */
public final class EpochUnits {
    private static final EpochUnits SECOND = new EpochUnits(TimeUnit.SECOND, 1_000_000_000L);
    private static final EpochUnits MILLISECOND = new EpochUnits(TimeUnit.MILLISECOND, 1_000_000L);
    private static final EpochUnits MICROSECOND = new EpochUnits(TimeUnit.MICROSECOND, 1_000L);
    private static final EpochUnits NANOSECOND = new EpochUnits(TimeUnit.NANOSECOND, 1L);

    private final TimeUnit unit;
    private final long nanosPerUnit;
    private final long unitsPerSecond;

    private EpochUnits(TimeUnit unit, long nanosPerUnit) {
        this.unit = unit;
        this.nanosPerUnit = nanosPerUnit;
        this.unitsPerSecond = 1_000_000_000L / nanosPerUnit;
    }

    public static EpochUnits of(TimeUnit unit) {
        return switch (requireNonNull(unit, "unit is null")) {
            case SECOND -> SECOND;
            case MILLISECOND -> MILLISECOND;
            case MICROSECOND -> MICROSECOND;
            case NANOSECOND -> NANOSECOND;
        };
    }

    /** The Arrow unit a Fluss time or timestamp of {@code precision} (0-9) is stored in. */
    public static TimeUnit unitOfPrecision(int precision) {
        if (precision == 0) {
            return TimeUnit.SECOND;
        }
        if (precision <= 3) {
            return TimeUnit.MILLISECOND;
        }
        return precision <= 6 ? TimeUnit.MICROSECOND : TimeUnit.NANOSECOND;
    }

    public TimeUnit unit() {
        return unit;
    }

    /**
     * Fluss's (epoch millisecond, nano of millisecond) pair as a count of this unit, computed as
     * Fluss's own timestamp writers do. Seconds use plain division, not floorDiv: before 1970 that
     * rounds toward zero, and it must, or the same value would read differently from a log batch
     * and from a row.
     */
    public long count(long epochMillisecond, int nanoOfMillisecond) {
        return switch (unit) {
            case SECOND -> epochMillisecond / 1_000;
            case MILLISECOND -> epochMillisecond;
            case MICROSECOND -> epochMillisecond * 1_000L + nanoOfMillisecond / 1_000;
            case NANOSECOND -> epochMillisecond * 1_000_000L + nanoOfMillisecond;
        };
    }

    /** The whole seconds of a count since the epoch (rounded down, so pre-1970 instants stay exact). */
    public long epochSecond(long count) {
        return Math.floorDiv(count, unitsPerSecond);
    }

    /** The nanoseconds within {@link #epochSecond}'s second, 0 to 999,999,999. */
    public int nanoOfSecond(long count) {
        return (int) (Math.floorMod(count, unitsPerSecond) * nanosPerUnit);
    }

    /** The whole milliseconds of a count since the epoch (rounded down, so pre-1970 instants stay exact). */
    public long epochMillisecond(long count) {
        return nanosPerUnit >= 1_000_000L ? count * (nanosPerUnit / 1_000_000L)
                : Math.floorDiv(count, 1_000_000L / nanosPerUnit);
    }

    /** The nanoseconds within {@link #epochMillisecond}'s millisecond, 0 to 999,999. */
    public int nanoOfMillisecond(long count) {
        return nanosPerUnit >= 1_000_000L ? 0 : (int) (Math.floorMod(count, 1_000_000L / nanosPerUnit) * nanosPerUnit);
    }

    /** A count of this unit as nanoseconds (a time of day). */
    public long nanos(long count) {
        return count * nanosPerUnit;
    }
}
