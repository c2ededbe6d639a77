package dev.riffle.pgwire.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.values.FlussValueSink;
import java.math.BigDecimal;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/** PostgreSQL text values read for Fluss columns, checked by the value layer's write rules. */
class PgTextValueReaderTest {

    private static Object read(String text, DataType type) {
        FlussValueSink sink = new FlussValueSink(type);
        PgTextValueReader.read(text, type, sink);
        return sink.take();
    }

    @Test
    void readsScalarsAsFlussHoldsThem() {
        assertThat(read(" 42 ", DataTypes.INT())).isEqualTo(42);
        assertThat(read("t", DataTypes.BOOLEAN())).isEqualTo(true);
        assertThat(read("-Infinity", DataTypes.DOUBLE())).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(read("12.3", DataTypes.DECIMAL(10, 2)))
                .isEqualTo(Decimal.fromBigDecimal(new BigDecimal("12.30"), 10, 2));
        assertThat(read("\\x0aff", DataTypes.BYTES())).isEqualTo(new byte[] {0x0a, (byte) 0xff});
        assertThat(read("2024-06-01 14:00:00+02", DataTypes.TIMESTAMP_LTZ(6)))
                .isEqualTo(TimestampLtz.fromEpochMillis(1_717_243_200_000L));
        assertThat(read("{a,\"b c\",NULL}", DataTypes.ARRAY(DataTypes.STRING()))).isEqualTo(new GenericArray(
                new Object[] {BinaryString.fromString("a"), BinaryString.fromString("b c"), null}));
    }

    @Test
    void refusesWhatIsNotAValueOfTheColumnNamingTheTypeAndText() {
        assertThatThrownBy(() -> read("thirty", DataTypes.INT())).isInstanceOf(InvalidValueException.class)
                .hasMessage("invalid input syntax for type integer: \"thirty\"");
        assertThatThrownBy(() -> read("1.5f", DataTypes.DOUBLE()))
                .hasMessage("invalid input syntax for type double precision: \"1.5f\"");
        assertThatThrownBy(() -> read("70000", DataTypes.SMALLINT())).hasMessageContaining("70000 is out of range for SMALLINT");
        assertThatThrownBy(() -> read("1.234", DataTypes.DECIMAL(10, 2))).hasMessageContaining("digits after the point");
        assertThatThrownBy(() -> read("abcd", DataTypes.CHAR(3))).hasMessageContaining("value too long for type character(3)");
        assertThatThrownBy(() -> read("10000-01-01", DataTypes.DATE())).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> read("{1,2", DataTypes.ARRAY(DataTypes.INT())))
                .hasMessage("invalid input syntax for type integer[]: \"{1,2\"");
    }
}
