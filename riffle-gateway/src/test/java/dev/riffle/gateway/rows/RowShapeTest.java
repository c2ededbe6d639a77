package dev.riffle.gateway.rows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

/** A key given as text per column (a URL) reads exactly as the same key given as JSON strings. */
class RowShapeTest {
    private static final TableInfo ORDERS = TableInfo.of(TablePath.of("shop", "orders"), 7, 1,
            TableDescriptor.builder()
                    .schema(Schema.newBuilder()
                            .column("region", DataTypes.STRING())
                            .column("id", DataTypes.BIGINT())
                            .column("day", DataTypes.DATE())
                            .column("amount", DataTypes.DECIMAL(10, 2))
                            .primaryKey("region", "id", "day")
                            .build())
                    .distributedBy(2, "region", "id", "day")
                    .build(),
            0, 0);

    private final RowShape key = RowShape.lookupKey(ORDERS);

    @Test
    void textKeyIsTheJsonKeyReadAsText() {
        GenericRow fromText = key.fromText(text("region", "eu", "id", "-42", "day", "2026-12-05"));
        assertThat(fromText.getString(0)).isEqualTo(BinaryString.fromString("eu"));
        assertThat(fromText.getLong(1)).isEqualTo(-42L);
        assertThat(fromText.getInt(2)).isEqualTo((int) java.time.LocalDate.of(2026, 12, 5).toEpochDay());
        assertThat(fromText).isEqualTo(key.fromJson(json("region", "eu", "id", "-42", "day", "2026-12-05"), -1, true));
    }

    @Test
    void badTextKeysFailAsTheSameJsonKeys() {
        assertSameFailure(text("region", "eu", "day", "2026-12-05"), "'id'", "missing");
        assertSameFailure(text("region", "eu", "id", "forty-two", "day", "2026-12-05"), "'id'");
        assertSameFailure(text("region", "eu", "id", "1", "day", "2026-12-05", "amount", "3.50"), "'amount'",
                "not part of a key");
        assertSameFailure(text("region", "eu", "id", "1", "day", "2026-12-05", "colour", "red"), "'colour'",
                "does not exist");
    }

    private void assertSameFailure(Map<String, String> values, String... mentions) {
        ApiException fromText = catchApi(() -> key.fromText(values));
        ApiException fromJson = catchApi(() -> key.fromJson(json(values), -1, true));
        assertThat(fromText.status()).isEqualTo(400);
        assertThat(fromText.code()).isEqualTo(fromJson.code());
        assertThat(fromText.getMessage()).isEqualTo(fromJson.getMessage()).contains(mentions);
    }

    private static ApiException catchApi(Runnable read) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(read::run);
        assertThat(thrown).isInstanceOf(ApiException.class);
        return (ApiException) thrown;
    }

    private static Map<String, String> text(String... namesAndValues) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            values.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return values;
    }

    private static ObjectNode json(String... namesAndValues) {
        return json(text(namesAndValues));
    }

    private static ObjectNode json(Map<String, String> values) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        values.forEach(node::put);
        return node;
    }
}
