package dev.riffle.gateway.rows;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Bodies;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * A body streamed row by row ({@link JsonRowStream}) takes the values a whole-document read takes
 * and refuses the ones it refuses, with the same errors: the streamed path reads common scalars
 * straight off the parser, so each of them is compared with the tree's reading here.
 */
class JsonRowStreamTest {
    private static final TableInfo TABLE = TableInfo.of(TablePath.of("db", "t"), 1, 1, TableDescriptor.builder()
            .schema(Schema.newBuilder()
                    .column("id", DataTypes.INT().copy(false))
                    .column("flag", DataTypes.BOOLEAN())
                    .column("tiny", DataTypes.TINYINT())
                    .column("small", DataTypes.SMALLINT())
                    .column("i", DataTypes.INT())
                    .column("big", DataTypes.BIGINT())
                    .column("f", DataTypes.FLOAT())
                    .column("d", DataTypes.DOUBLE())
                    .column("amount", DataTypes.DECIMAL(10, 2))
                    .column("code", DataTypes.CHAR(3))
                    .column("name", DataTypes.STRING())
                    .column("day", DataTypes.DATE())
                    .column("at", DataTypes.TIMESTAMP(3))
                    .column("tags", DataTypes.ARRAY(DataTypes.INT()))
                    .column("pos", DataTypes.ROW(DataTypes.FIELD("x", DataTypes.DOUBLE())))
                    .build())
            .distributedBy(1).build(), 0, 0);

    /** Values every column is given, one row each: valid ones, edge ones and wrong ones. */
    private static final List<String> VALUES = List.of("null", "0", "-1", "1", "127", "128", "-129", "32768",
            "2147483647", "2147483648", "-2147483649", "9223372036854775807", "9223372036854775808",
            "-9223372036854775809", "99999999999999999999999", "1.0", "1.5", "0.1", "1e2", "1E-2", "1e39",
            "-1e39", "1e400", "1e-400", "1e-50", "3.4028235e38", "3.4028236e38", "16777217", "9007199254740993",
            "0.30000000000000004", "123.456", "12.345", "\"NaN\"", "\"Infinity\"",
            "\"-Infinity\"", "\"\"", "\"ab\"", "\"abc\"", "\"abcd\"", "\"héllo ✓\"", "\"𝄞𝄞𝄞\"", "\"𝄞𝄞𝄞𝄞\"", "\"1\"",
            "\"12.50\"", "\"2024-06-01\"", "\"2024-06-01T12:30:00.250\"", "true", "false", "[]", "[1, null, 3]",
            "[1, \"a\"]", "{}", "{\"x\": 1.5}", "{\"x\": 1, \"x\": 2}", "{\"y\": 1}", "[{\"x\": 1, \"x\": 2}]");

    @Test
    void everyValueOfEveryColumnReadsAsInAWholeDocument() {
        List<String> columns = TABLE.getRowType().getFieldNames();
        int compared = 0;
        for (String column : columns) {
            for (String value : VALUES) {
                String row = column.equals("id") ? "{\"id\": " + value + "}" : "{\"id\": 1, \"" + column + "\": " + value + "}";
                assertSameReading("[" + row + "]", JsonRowStream.Framing.ARRAY);
                assertSameReading(row + "\n", JsonRowStream.Framing.NDJSON);
                compared++;
            }
        }
        assertThat(compared).isEqualTo(columns.size() * VALUES.size());
    }

    @Test
    void negativeZeroKeepsItsSign() {
        // The whole document's exact decimal had no sign of zero; Arrow bodies and streamed rows keep it.
        List<GenericRow> rows = new ArrayList<>();
        JsonRowStream.read(new ByteArrayInputStream("[{\"id\": 1, \"f\": -0.0, \"d\": -0.0}]".getBytes(UTF_8)),
                JsonRowStream.Framing.ARRAY, RowShape.write(TABLE), rows::add);
        assertThat(Float.floatToIntBits(rows.get(0).getFloat(6))).isEqualTo(Float.floatToIntBits(-0.0f));
        assertThat(Double.doubleToLongBits(rows.get(0).getDouble(7))).isEqualTo(Double.doubleToLongBits(-0.0));
    }

    @Test
    void bareNonNumericNumbersAreTheDoublesTheyName() {
        // A whole document's tree failed on these (an exact decimal cannot hold them): a 500.
        List<GenericRow> rows = new ArrayList<>();
        JsonRowStream.read(new ByteArrayInputStream(("[{\"id\": 1, \"f\": Infinity, \"d\": NaN},"
                + " {\"id\": 2, \"f\": -Infinity, \"d\": -Infinity}]").getBytes(UTF_8)),
                JsonRowStream.Framing.ARRAY, RowShape.write(TABLE), rows::add);
        assertThat(rows.get(0).getFloat(6)).isEqualTo(Float.POSITIVE_INFINITY);
        assertThat(rows.get(0).getDouble(7)).isNaN();
        assertThat(rows.get(1).getFloat(6)).isEqualTo(Float.NEGATIVE_INFINITY);
        assertThat(rows.get(1).getDouble(7)).isEqualTo(Double.NEGATIVE_INFINITY);
        for (String column : List.of("i", "big", "amount", "name")) {
            assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(() -> JsonRowStream.read(
                    new ByteArrayInputStream(("[{\"id\": 1, \"" + column + "\": NaN}]").getBytes(UTF_8)),
                    JsonRowStream.Framing.ARRAY, RowShape.write(TABLE), row -> { }), ApiException.class))
                    .as(column)
                    .satisfies(e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.code()).isEqualTo("invalid_row");
                        assertThat(e.getMessage()).contains("Row 0", "column '" + column + "'", "got number \"NaN\"");
                    });
        }
    }

    @Test
    void bodiesReadAsInAWholeDocument() {
        for (String body : List.of("[]", "[{\"id\": 1}, {\"id\": 2}]", "[{\"id\": 1}] ", "[{\"id\": 1}] [", "[{\"id\": 1}] x",
                "{\"id\": 1}", "42", "\"rows\"", "[1]", "[null]", "[[]]", "[{\"id\": 1}, 2]", "[{\"id\": 1, \"id\": 2}]",
                "[{\"id\": 1, \"nope\": 2}]", "[{\"name\": \"x\"}]", "[{\"id\": null}]", "[{\"id\": 1", "[{\"id\": 1},",
                "[{\"id\": 1, \"tags\": [1, 2], \"name\": \"a\", \"tags\": [3]}]")) {
            assertSameReading(body, JsonRowStream.Framing.ARRAY);
        }
    }

    @Test
    void ndjsonTakesAnyWhitespaceBetweenRows() {
        List<GenericRow> rows = new ArrayList<>();
        int count = JsonRowStream.read(new ByteArrayInputStream("{\"id\": 1}\n\n  {\"id\": 2}{\"id\": 3}\r\n".getBytes(UTF_8)),
                JsonRowStream.Framing.NDJSON, RowShape.write(TABLE), rows::add);
        assertThat(count).isEqualTo(3);
        assertThat(rows).extracting(row -> row.getInt(0)).containsExactly(1, 2, 3);
    }

    /** The streamed reading of {@code body} equals the whole-document one: the same rows, or the same error. */
    private static void assertSameReading(String body, JsonRowStream.Framing framing) {
        Object tree = whole(body, framing);
        Object streamed;
        try {
            List<GenericRow> rows = new ArrayList<>();
            JsonRowStream.read(new ByteArrayInputStream(body.getBytes(UTF_8)), framing, RowShape.write(TABLE), rows::add);
            streamed = rows.stream().map(JsonRowStreamTest::fields).toList();
        } catch (ApiException e) {
            streamed = error(e);
        }
        assertThat(streamed).as("%s body %s", framing, body).isEqualTo(tree);
    }

    /** What the gateway made of a body read as one document, before it streamed bodies. */
    private static Object whole(String body, JsonRowStream.Framing framing) {
        try {
            List<JsonNode> nodes = new ArrayList<>();
            if (framing == JsonRowStream.Framing.NDJSON) {
                try (var values = dev.riffle.gateway.http.Json.MAPPER.readerFor(JsonNode.class)
                        .readValues(body.getBytes(UTF_8))) {
                    while (values.hasNextValue()) {
                        nodes.add((JsonNode) values.nextValue());
                    }
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw Bodies.malformed(e);
                }
            } else {
                JsonNode document = Bodies.json(new ByteArrayInputStream(body.getBytes(UTF_8)));
                if (!document.isArray()) {
                    throw ApiException.badRequest("invalid_request", "A JSON body must be an array of row objects, got "
                            + dev.riffle.gateway.http.Json.describe(document) + " (send one object per line as "
                            + "application/x-ndjson)");
                }
                document.forEach(nodes::add);
            }
            List<Object> rows = new ArrayList<>();
            for (int i = 0; i < nodes.size(); i++) {
                rows.add(fields(RowShape.write(TABLE).fromJson(nodes.get(i), i, false)));
            }
            return rows;
        } catch (ApiException e) {
            return error(e);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A row's values, comparable (arrays by content). */
    private static List<String> fields(GenericRow row) {
        List<String> fields = new ArrayList<>();
        for (int i = 0; i < row.getFieldCount(); i++) {
            Object field = row.getField(i);
            fields.add(field == null ? "null" : field.getClass().getSimpleName() + ":" + (field instanceof byte[] bytes
                    ? java.util.Arrays.toString(bytes) : String.valueOf(field)));
        }
        return fields;
    }

    /**
     * An error as a user meets it: its status and code, and its message, except that a malformed
     * body's position within the text may be told differently by the two readers.
     */
    private static Map<String, Object> error(ApiException e) {
        String message = e.code().equals("malformed_json") ? "(malformed)" : e.getMessage();
        return Map.of("status", e.status(), "code", e.code(), "message", message);
    }
}
