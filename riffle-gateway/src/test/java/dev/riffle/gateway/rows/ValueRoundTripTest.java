package dev.riffle.gateway.rows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.FlussValueSink;
import dev.riffle.gateway.http.Json;
import dev.riffle.gateway.http.Render;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypeParser;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.Test;

/** JSON -> Fluss rows -> Arrow -> JSON, and Arrow -> Fluss rows, for every type the gateway writes and renders. */
class ValueRoundTripTest {
    private static final RowType ALL = RowType.of(
            new org.apache.fluss.types.DataType[] {
                DataTypes.INT().copy(false), DataTypes.BOOLEAN(), DataTypes.TINYINT(), DataTypes.SMALLINT(),
                DataTypes.BIGINT(), DataTypes.FLOAT(), DataTypes.DOUBLE(), DataTypes.DECIMAL(20, 4),
                DataTypes.CHAR(3), DataTypes.STRING(), DataTypes.BYTES(), DataTypes.BINARY(2), DataTypes.DATE(),
                DataTypes.TIME(3), DataTypes.TIMESTAMP(9), DataTypes.TIMESTAMP_LTZ(3),
                DataTypeParser.parse("ARRAY<ARRAY<STRING>>"), DataTypeParser.parse("MAP<INT, DOUBLE>"),
                DataTypeParser.parse("ROW<x INT, tags ARRAY<INT>>")},
            new String[] {"id", "flag", "tiny", "small", "big", "f", "d", "amount", "code", "name", "raw", "fixed",
                "day", "clock", "at", "seen", "nested", "weights", "point"});

    private static final String ROWS = "["
            + "{\"id\":1,\"flag\":false,\"tiny\":-128,\"small\":32767,\"big\":-9223372036854775808,\"f\":-0.5,"
            + "\"d\":\"NaN\",\"amount\":1234567890.1234,\"code\":\"ab\",\"name\":\"\",\"raw\":\"\",\"fixed\":\"AAE=\","
            + "\"day\":\"1969-12-31\",\"clock\":\"00:00:00\",\"at\":\"2024-02-29T23:59:59.123456789\","
            + "\"seen\":\"1970-01-01T00:00:00.001Z\",\"nested\":[[\"a\",null],[],null],\"weights\":{\"1\":0.5,\"-2\":null},"
            + "\"point\":{\"x\":7,\"tags\":[1,2]}},"
            + "{\"id\":2,\"flag\":null,\"tiny\":null,\"small\":null,\"big\":null,\"f\":\"Infinity\",\"d\":\"-Infinity\","
            + "\"amount\":-0.0001,\"code\":null,\"name\":\"multi\\nline\",\"raw\":null,\"fixed\":null,\"day\":null,"
            + "\"clock\":\"23:59:59.999\",\"at\":null,\"seen\":null,\"nested\":null,\"weights\":{},\"point\":{\"x\":null,\"tags\":null}}]";

    @Test
    void jsonToFlussToArrowToJsonIsTheIdentity() throws IOException {
        JsonNode input = Json.MAPPER.readTree(ROWS);
        List<InternalRow> rows = new ArrayList<>();
        for (JsonNode row : input) {
            rows.add(fromJson(row));
        }
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = toArrow(rows, allocator)) {
            assertThat(render(root)).isEqualTo(input);

            // And Arrow back into Fluss rows gives the same rows again.
            List<InternalRow> again = new ArrayList<>();
            for (int r = 0; r < root.getRowCount(); r++) {
                GenericRow row = new GenericRow(ALL.getFieldCount());
                for (int c = 0; c < ALL.getFieldCount(); c++) {
                    FlussValueSink value = new FlussValueSink(ALL.getTypeAt(c));
                    ArrowValueReader.of(root.getVector(c)).read(r, value);
                    row.setField(c, value.take());
                }
                again.add(row);
            }
            try (VectorSchemaRoot second = toArrow(again, allocator)) {
                assertThat(render(second)).isEqualTo(input);
            }
        }
    }

    /** Times and timestamps of every precision, and map keys of every kind, beside {@link #ALL}. */
    private static final RowType MORE = RowType.of(
            new org.apache.fluss.types.DataType[] {
                DataTypes.TIME(0), DataTypes.TIMESTAMP(0), DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP(6),
                DataTypes.TIMESTAMP_LTZ(0), DataTypes.TIMESTAMP_LTZ(6), DataTypes.TIMESTAMP_LTZ(9), DataTypes.CHAR(5),
                DataTypeParser.parse("MAP<STRING, INT>"), DataTypeParser.parse("MAP<DATE, INT>"),
                DataTypeParser.parse("MAP<DECIMAL(5, 2), INT>"), DataTypeParser.parse("MAP<BOOLEAN, INT>"),
                DataTypeParser.parse("MAP<BYTES, INT>"), DataTypeParser.parse("MAP<TIMESTAMP(3), INT>"),
                DataTypeParser.parse("MAP<TIME(3), INT>"), DataTypeParser.parse("MAP<BIGINT, ARRAY<ROW<a STRING>>>"),
                DataTypeParser.parse("ARRAY<TIMESTAMP_LTZ(3)>")},
            new String[] {"t0", "ts0", "ts3", "ts6", "ltz0", "ltz6", "ltz9", "code", "by_name", "by_day", "by_amount",
                "by_flag", "by_bytes", "by_time", "by_clock", "deep", "instants"});

    private static final String MORE_ROWS = "["
            + "{\"t0\":\"12:30:05\",\"ts0\":\"1969-12-31T23:59:59\",\"ts3\":\"1960-01-01T00:00:00.001\","
            + "\"ts6\":\"2024-06-01T12:00:00.000250\",\"ltz0\":\"1970-01-01T00:00:00Z\","
            + "\"ltz6\":\"1969-12-31T23:59:59.999999Z\",\"ltz9\":\"2024-06-01T12:00:00.123456789Z\",\"code\":\"ab\","
            + "\"by_name\":{\"x\":1,\"\":2},\"by_day\":{\"2024-02-29\":3},\"by_amount\":{\"-1.50\":4},"
            + "\"by_flag\":{\"true\":5},\"by_bytes\":{\"AAE=\":6},\"by_time\":{\"2024-06-01T00:00:00.500\":7},"
            + "\"by_clock\":{\"23:59:59.999\":8},\"deep\":{\"9\":[{\"a\":\"z\"},null]},"
            + "\"instants\":[\"1970-01-01T00:00:00.001Z\",null]},"
            + "{\"t0\":null,\"ts0\":null,\"ts3\":null,\"ts6\":null,\"ltz0\":null,\"ltz6\":null,\"ltz9\":null,"
            + "\"code\":null,\"by_name\":null,\"by_day\":{},\"by_amount\":null,\"by_flag\":null,\"by_bytes\":null,"
            + "\"by_time\":null,\"by_clock\":null,\"deep\":null,\"instants\":[]}]";

    /**
     * Point lookups render Fluss rows straight to JSON; scans render Arrow batches. A row must
     * read the same either way, for every type.
     */
    @Test
    void flussRowsRenderAsTheirArrowBatchesDo() throws IOException {
        for (RowType type : List.of(ALL, MORE)) {
            JsonNode input = Json.MAPPER.readTree(type == ALL ? ROWS : MORE_ROWS);
            List<InternalRow> rows = new ArrayList<>();
            for (JsonNode row : input) {
                rows.add(fromJson(row, type));
            }
            StringWriter text = new StringWriter();
            try (JsonGenerator json = Json.MAPPER.createGenerator(text)) {
                json.writeStartArray();
                for (InternalRow row : rows) {
                    Render.writeRow(json, row, type);
                }
                json.writeEndArray();
            }
            JsonNode direct = Json.MAPPER.readTree(text.toString());
            try (BufferAllocator allocator = new RootAllocator();
                    VectorSchemaRoot root = toArrow(rows, type, allocator)) {
                assertThat(direct).as(type.toString()).isEqualTo(render(root)).isEqualTo(input);
            }
        }
    }

    @Test
    void valuesThatDoNotFitTheirColumnAreRefusedWithTheReason() {
        assertRefused("DECIMAL(5,2)", "1.234", "more than 2 digits after the point");
        assertRefused("DECIMAL(5,2)", "12345.6", "does not fit DECIMAL(5, 2)");
        assertRefused("CHAR(2)", "\"abc\"", "longer than CHAR(2)");
        assertRefused("BINARY(2)", "\"AQID\"", "3 bytes do not fit BINARY(2)");
        assertRefused("BYTES", "\"not base64!\"", "not base64");
        assertRefused("TINYINT", "128", "out of range");
        assertRefused("INT", "1.5", "expected INT");
        assertRefused("TIMESTAMP_LTZ(3)", "\"2024-06-01T00:00:00\"", "an instant with Z or an offset");
        assertRefused("DATE", "\"June 1st\"", "not a DATE");
        assertRefused("ARRAY<INT NOT NULL>", "[1, null]", "at [1]: null where INT NOT NULL is required");
        assertRefused("ROW<a INT>", "{\"b\": 1}", "unknown field 'b'");
        assertRefused("MAP<INT, INT>", "{\"x\": 1}", "'x' is not a whole number");
    }

    @Test
    void textModeReadsNumbersAndBooleansFromUrlText() throws IOException {
        assertThat(JsonValueReader.toFluss(Json.MAPPER.readTree("\"42\""), DataTypes.BIGINT(), true)).isEqualTo(42L);
        assertThat(JsonValueReader.toFluss(Json.MAPPER.readTree("\"true\""), DataTypes.BOOLEAN(), true)).isEqualTo(true);
        assertThatThrownBy(() -> JsonValueReader.toFluss(Json.MAPPER.readTree("\"42\""), DataTypes.BIGINT(), false))
                .hasMessageContaining("expected BIGINT");
    }

    private static void assertRefused(String type, String json, String reason) {
        assertThatThrownBy(() -> JsonValueReader.toFluss(Json.MAPPER.readTree(json), DataTypeParser.parse(type), false))
                .as(type + " " + json)
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining(reason);
    }

    private static GenericRow fromJson(JsonNode json) {
        return fromJson(json, ALL);
    }

    private static GenericRow fromJson(JsonNode json, RowType type) {
        GenericRow row = new GenericRow(type.getFieldCount());
        for (int c = 0; c < type.getFieldCount(); c++) {
            row.setField(c, JsonValueReader.toFluss(json.get(type.getFieldNames().get(c)), type.getTypeAt(c), false));
        }
        return row;
    }

    private static JsonNode render(VectorSchemaRoot root) throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = Json.MAPPER.createGenerator(text)) {
            json.writeStartArray();
            Render.writeRows(json, root);
            json.writeEndArray();
        }
        return Json.MAPPER.readTree(text.toString());
    }

    private static VectorSchemaRoot toArrow(List<InternalRow> rows, BufferAllocator allocator) {
        return toArrow(rows, ALL, allocator);
    }

    private static VectorSchemaRoot toArrow(List<InternalRow> rows, RowType type, BufferAllocator allocator) {
        try (dev.riffle.core.types.RowArrowWriter writer = dev.riffle.core.types.RowArrowWriter.create(type, allocator)) {
            rows.forEach(writer::write);
            return writer.finish();
        }
    }
}
