package dev.riffle.core.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.apache.arrow.vector.types.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EpochUnitsTest {

    /** Instants on both sides of the epoch, with sub-millisecond parts where the unit keeps them. */
    private static final Instant[] INSTANTS = {
        Instant.parse("1970-01-01T00:00:00Z"),
        Instant.parse("2024-02-29T12:34:56.789123456Z"),
        Instant.parse("1969-12-31T23:59:59.999999999Z"),
        Instant.parse("1900-06-15T01:02:03.000000001Z"),
        Instant.parse("1969-12-31T23:59:58Z"),
    };

    @ParameterizedTest
    @EnumSource(TimeUnit.class)
    void aCountSplitsIntoTheMillisecondAndNanosThatMakeIt(TimeUnit timeUnit) {
        EpochUnits unit = EpochUnits.of(timeUnit);
        for (Instant instant : INSTANTS) {
            long count = countOf(instant, timeUnit);
            long millis = unit.epochMillisecond(count);
            int nanos = unit.nanoOfMillisecond(count);
            assertThat(nanos).as("%s in %s", instant, timeUnit).isBetween(0, 999_999);
            Instant back = Instant.ofEpochMilli(millis).plusNanos(nanos);
            assertThat(back).as("%s in %s", instant, timeUnit).isEqualTo(truncated(instant, timeUnit));
            // The same instant through seconds and nano of second.
            assertThat(Instant.ofEpochSecond(unit.epochSecond(count), unit.nanoOfSecond(count))).isEqualTo(back);
        }
    }

    private static long countOf(Instant instant, TimeUnit unit) {
        long nanos = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
        return switch (unit) {
            case SECOND -> Math.floorDiv(nanos, 1_000_000_000L);
            case MILLISECOND -> Math.floorDiv(nanos, 1_000_000L);
            case MICROSECOND -> Math.floorDiv(nanos, 1_000L);
            case NANOSECOND -> nanos;
        };
    }

    private static Instant truncated(Instant instant, TimeUnit unit) {
        long step = switch (unit) {
            case SECOND -> 1_000_000_000L;
            case MILLISECOND -> 1_000_000L;
            case MICROSECOND -> 1_000L;
            case NANOSECOND -> 1L;
        };
        long nanos = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
        long kept = Math.floorDiv(nanos, step) * step;
        return Instant.ofEpochSecond(Math.floorDiv(kept, 1_000_000_000L), Math.floorMod(kept, 1_000_000_000L));
    }
}
