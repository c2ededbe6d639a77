package dev.riffle.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.exception.InvalidTypeException;
import java.util.Map;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

class ColumnTypesTest {
    @Test
    void postgresSpellingsAreTheirFlussTwins() {
        Map<String, org.apache.fluss.types.DataType> twins = Map.ofEntries(
                Map.entry("INTEGER", DataTypes.INT()), Map.entry("int4", DataTypes.INT()),
                Map.entry("INT8", DataTypes.BIGINT()), Map.entry("int2", DataTypes.SMALLINT()),
                Map.entry("DOUBLE PRECISION", DataTypes.DOUBLE()), Map.entry("float8", DataTypes.DOUBLE()),
                Map.entry("FLOAT(53)", DataTypes.DOUBLE()), Map.entry("FLOAT(24)", DataTypes.FLOAT()),
                Map.entry("REAL", DataTypes.FLOAT()), Map.entry("float4", DataTypes.FLOAT()),
                Map.entry("NUMERIC(10, 2)", DataTypes.DECIMAL(10, 2)), Map.entry("TEXT", DataTypes.STRING()),
                Map.entry("CHARACTER VARYING(20)", DataTypes.STRING()), Map.entry("VARCHAR(5)", DataTypes.STRING()),
                Map.entry("CHARACTER(3)", DataTypes.CHAR(3)), Map.entry("BYTEA", DataTypes.BYTES()),
                Map.entry("BOOL", DataTypes.BOOLEAN()), Map.entry("TIMESTAMP", DataTypes.TIMESTAMP(6)),
                Map.entry("TIMESTAMP WITHOUT TIME ZONE", DataTypes.TIMESTAMP(6)),
                Map.entry("TIMESTAMP WITH TIME ZONE", DataTypes.TIMESTAMP_LTZ(6)),
                Map.entry("timestamptz(3)", DataTypes.TIMESTAMP_LTZ(3)),
                Map.entry("TIMESTAMP(3) WITH TIME ZONE", DataTypes.TIMESTAMP_LTZ(3)),
                Map.entry("INTEGER[]", DataTypes.ARRAY(DataTypes.INT())),
                Map.entry("TEXT[] NOT NULL", DataTypes.ARRAY(DataTypes.STRING()).copy(false)),
                Map.entry("VARCHAR(20) NOT NULL", DataTypes.STRING().copy(false)),
                Map.entry("ARRAY<STRING>", DataTypes.ARRAY(DataTypes.STRING())));
        twins.forEach((written, type) -> assertThat(ColumnTypes.parse("c", written)).as(written).isEqualTo(type));
    }

    @Test
    void typesWithoutATwinAreRefusedSayingWhatToWrite() {
        assertThatThrownBy(() -> ColumnTypes.parse("id", "SERIAL")).isInstanceOf(InvalidTypeException.class)
                .hasMessageContaining("Column 'id'").hasMessageContaining("no sequences");
        assertThatThrownBy(() -> ColumnTypes.parse("doc", "jsonb")).hasMessageContaining("STRING (TEXT)");
        assertThatThrownBy(() -> ColumnTypes.parse("price", "NUMERIC"))
                .hasMessageContaining("write NUMERIC(p, s)");
        assertThatThrownBy(() -> ColumnTypes.parse("x", "FLOAT(54)")).hasMessageContaining("1 to 53");
        assertThatThrownBy(() -> ColumnTypes.parse("x", "GEOMETRY")).hasMessageContaining("not a Fluss type")
                .hasMessageContaining(ColumnTypes.KNOWN_TYPES);
    }
}
