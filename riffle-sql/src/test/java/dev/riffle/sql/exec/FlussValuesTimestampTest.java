package dev.riffle.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Map;
import org.apache.calcite.DataContexts;
import org.apache.calcite.util.TimestampString;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/** Timestamps from Calcite's values to Fluss's, with every digit the column holds. */
class FlussValuesTimestampTest {
    private static final TimestampString MICROS = new TimestampString("2024-06-01 12:00:00.123456");
    private static final TimestampString SEVEN_DIGITS = new TimestampString("2024-06-01 12:00:00.1234567");

    @Test
    void literalsKeepEveryDigitTheColumnHolds() {
        assertThat(ntz(FlussValues.toFluss(MICROS, DataTypes.TIMESTAMP(6), "ts")))
                .isEqualTo(LocalDateTime.parse("2024-06-01T12:00:00.123456"));
        assertThat(ntz(FlussValues.toFluss(new TimestampString("2024-06-01 12:00:00.123456789"), DataTypes.TIMESTAMP(9),
                "ts"))).isEqualTo(LocalDateTime.parse("2024-06-01T12:00:00.123456789"));
        assertThat(((TimestampLtz) FlussValues.toFluss(MICROS, DataTypes.TIMESTAMP_LTZ(6), "ltz")).toInstant())
                .isEqualTo(Instant.parse("2024-06-01T12:00:00.123456Z"));
    }

    @Test
    void digitsBeyondTheColumnAreCutWhenWrittenAndKeptWhenCompared() {
        assertThat(ntz(FlussValues.toFluss(SEVEN_DIGITS, DataTypes.TIMESTAMP(6), "ts")))
                .isEqualTo(LocalDateTime.parse("2024-06-01T12:00:00.123456"));
        assertThat(ntz(FlussValues.toFluss(new TimestampString("2024-06-01 12:00:00.9999"), DataTypes.TIMESTAMP(3),
                "ts"))).isEqualTo(LocalDateTime.parse("2024-06-01T12:00:00.999"));
        assertThat(ntz(FlussValues.comparand(SEVEN_DIGITS, DataTypes.TIMESTAMP(6), "ts")))
                .isEqualTo(LocalDateTime.parse("2024-06-01T12:00:00.1234567"));
        assertThat(FlussValues.holds(SEVEN_DIGITS, DataTypes.TIMESTAMP(6))).isFalse();
        assertThat(FlussValues.holds(MICROS, DataTypes.TIMESTAMP(6))).isTrue();
        assertThat(FlussValues.holds(MICROS, DataTypes.TIMESTAMP_LTZ(3))).isFalse();
        assertThat(FlussValues.holds(1_717_243_200_123L, DataTypes.TIMESTAMP(3))).isTrue();
    }

    @Test
    void millisecondsAndJavaValuesStillConvert() {
        long millis = LocalDateTime.parse("2024-06-01T12:00:00.123").toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
        assertThat(ntz(FlussValues.toFluss(millis, DataTypes.TIMESTAMP(6), "ts")))
                .isEqualTo(LocalDateTime.parse("2024-06-01T12:00:00.123"));
        assertThat(ntz(FlussValues.toFluss(LocalDateTime.parse("2024-06-01T12:00:00.654321"), DataTypes.TIMESTAMP(6),
                "ts"))).isEqualTo(LocalDateTime.parse("2024-06-01T12:00:00.654321"));
        // a java.sql.Timestamp stands for its wall clock, as JDBC binds it
        Timestamp before1970 = Timestamp.valueOf(LocalDateTime.parse("1969-12-31T23:59:59.999999"));
        assertThat(((TimestampLtz) FlussValues.toFluss(before1970, DataTypes.TIMESTAMP_LTZ(6), "ltz")).toInstant())
                .isEqualTo(Instant.parse("1969-12-31T23:59:59.999999Z"));
        assertThat(ntz(FlussValues.toFluss(new TimestampString("1969-12-31 23:59:59.9999999"), DataTypes.TIMESTAMP(6),
                "ts"))).isEqualTo(LocalDateTime.parse("1969-12-31T23:59:59.999999"));
    }

    @Test
    void aParameterTakesTheNanosecondsItWasBoundWith() {
        long millis = LocalDateTime.parse("2024-06-01T12:00:00.123").toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
        Timestamp bound = Timestamp.valueOf("2024-06-01 12:00:00.123456");
        Object value = ExactParameters.value(DataContexts.of(Map.of("?0", millis, ExactParameters.key(0), bound)), 0);
        assertThat(ntz(FlussValues.toFluss(value, DataTypes.TIMESTAMP(6), "ts")))
                .isEqualTo(LocalDateTime.parse("2024-06-01T12:00:00.123456"));
        // a value bound again another way leaves a timestamp that names another millisecond: not taken
        Object stale = ExactParameters.value(DataContexts.of(Map.of("?0", millis + 1, ExactParameters.key(0), bound)), 0);
        assertThat(stale).isEqualTo(millis + 1);
        assertThat(ExactParameters.value(DataContexts.of(Map.of("?0", 42)), 0)).isEqualTo(42);
    }

    private static LocalDateTime ntz(Object value) {
        return ((TimestampNtz) value).toLocalDateTime();
    }
}
