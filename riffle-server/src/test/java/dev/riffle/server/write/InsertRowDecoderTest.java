package dev.riffle.server.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.engine.InsertValues;
import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Optional;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * Riffle's own dialect writes the literals its engine's casts read to the same values, and leaves
 * every other literal to the engine.
 */
class InsertRowDecoderTest {
    private static final TableInfo EVENTS = TableInfo.of(TablePath.of("shop", "events"), 7, 1,
            TableDescriptor.builder()
                    .schema(Schema.newBuilder()
                            .column("id", DataTypes.INT())
                            .column("amount", DataTypes.DECIMAL(10, 2))
                            .column("day", DataTypes.DATE())
                            .column("at", DataTypes.TIMESTAMP(3))
                            .column("ltz", DataTypes.TIMESTAMP_LTZ(3))
                            .column("name", DataTypes.STRING())
                            .column("ok", DataTypes.BOOLEAN())
                            .column("ratio", DataTypes.DOUBLE())
                            .primaryKey("id")
                            .build())
                    .distributedBy(1)
                    .build(),
            0, 0);

    private static Optional<List<GenericRow>> decode(String sql, List<Object> parameters) {
        InsertValues insert = InsertValues.parse(sql, Dialect.CALCITE).orElseThrow();
        return InsertRowDecoder.of(EVENTS, insert, StandardLiteralReader.INSTANCE)
                .flatMap(decoder -> decoder.decode(parameters));
    }

    private static Optional<List<GenericRow>> decode(String sql) {
        return decode(sql, List.of());
    }

    @Test
    void isoLiteralsNumbersAndBooleansAreWrittenAsTheirValues() {
        List<GenericRow> rows = decode("INSERT INTO shop.events (id, amount, day, at, name, ok, ratio) VALUES"
                + " (1, 10.5, '2024-06-01', '2024-06-01 12:30:00.25', 'it''s', TRUE, -1.5e3),"
                + " (2, NULL, NULL, '2024-06-01 00:00:00', '', FALSE, 0)").orElseThrow();
        assertThat(rows).hasSize(2);
        GenericRow first = rows.get(0);
        assertThat(first.getInt(0)).isEqualTo(1);
        assertThat(first.getDecimal(1, 10, 2)).isEqualTo(Decimal.fromBigDecimal(new BigDecimal("10.50"), 10, 2));
        assertThat(first.getInt(2)).isEqualTo((int) LocalDate.of(2024, 6, 1).toEpochDay());
        assertThat(first.getTimestampNtz(3, 3)).isEqualTo(
                TimestampNtz.fromLocalDateTime(LocalDateTime.of(2024, 6, 1, 12, 30, 0, 250_000_000)));
        assertThat(first.isNullAt(4)).isTrue(); // not listed
        assertThat(first.getString(5)).isEqualTo(BinaryString.fromString("it's"));
        assertThat(first.getBoolean(6)).isTrue();
        assertThat(first.getDouble(7)).isEqualTo(-1500.0);
        GenericRow second = rows.get(1);
        assertThat(second.isNullAt(1)).isTrue();
        assertThat(second.isNullAt(2)).isTrue();
        assertThat(second.getString(5)).isEqualTo(BinaryString.fromString(""));
    }

    @Test
    void boundParametersAreWrittenAsGiven() {
        List<GenericRow> rows = decode("INSERT INTO shop.events (id, at, name) VALUES (?, ?, ?)",
                List.of(7, Timestamp.valueOf("2024-06-01 08:00:00.5"), "seven")).orElseThrow();
        assertThat(rows.get(0).getInt(0)).isEqualTo(7);
        assertThat(rows.get(0).getTimestampNtz(3, 3)).isEqualTo(
                TimestampNtz.fromLocalDateTime(LocalDateTime.of(2024, 6, 1, 8, 0, 0, 500_000_000)));
        assertThat(rows.get(0).getString(5)).isEqualTo(BinaryString.fromString("seven"));
    }

    @Test
    void literalsTheEngineCastsAreLeftToIt() {
        // quoted numbers and booleans, other date and time forms, a time zone's column
        assertThat(decode("INSERT INTO shop.events (id) VALUES ('42')")).isEmpty();
        assertThat(decode("INSERT INTO shop.events (id, ok) VALUES (1, 'true')")).isEmpty();
        assertThat(decode("INSERT INTO shop.events (id, day) VALUES (1, 'today')")).isEmpty();
        assertThat(decode("INSERT INTO shop.events (id, day) VALUES (1, '2024-6-1')")).isEmpty();
        assertThat(decode("INSERT INTO shop.events (id, at) VALUES (1, '2024-06-01T12:00:00')")).isEmpty();
        assertThat(decode("INSERT INTO shop.events (id, ltz) VALUES (1, '2024-06-01 12:00:00')")).isEmpty();
        // a number into a string column, a fraction into an integer one
        assertThat(decode("INSERT INTO shop.events (id, name) VALUES (1, 42)")).isEmpty();
        assertThat(decode("INSERT INTO shop.events (id) VALUES (1.5)")).isEmpty();
    }

    @Test
    void valuesTheEngineRoundsOrRefusesAreLeftToIt() {
        assertThat(decode("INSERT INTO shop.events (id) VALUES (3000000000)")).isEmpty(); // out of INT's range
        assertThat(decode("INSERT INTO shop.events (id, amount) VALUES (1, 1.005)")).isEmpty(); // finer than scale 2
        assertThat(decode("INSERT INTO shop.events (id, at) VALUES (1, '2024-06-01 12:00:00.0001')")).isEmpty();
        assertThat(decode("INSERT INTO shop.events (id, ratio) VALUES (1, 1e400)")).isEmpty();
        assertThat(decode("INSERT INTO shop.events (id, day) VALUES (1, '2024-02-30')")).isEmpty();
        // the primary key left out or NULL
        assertThat(decode("INSERT INTO shop.events (name) VALUES ('x')")).isEmpty();
        assertThat(decode("INSERT INTO shop.events (id) VALUES (NULL)")).isEmpty();
        // a column the table does not have
        assertThat(decode("INSERT INTO shop.events (id, nope) VALUES (1, 2)")).isEmpty();
    }

    @Test
    void aReaderDecidesEveryValueOnItsOwn() {
        // a value the reader refused leaves no state behind for the next statement
        assertThat(decode("INSERT INTO shop.events (id, day) VALUES (1, '2024-13-01')")).isEmpty();
        assertThat(decode("INSERT INTO shop.events (id, day) VALUES (1, '2024-12-01')")).isPresent();
    }
}
