package dev.riffle.mcp.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import java.util.List;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

class ToolArgumentsTest {
    @Test
    void readsWhatTheSchemaPromises() {
        ToolArguments args = new ToolArguments("sample", Map.of("table", "shop.orders", "limit", 5,
                "key", Map.of("id", 1)));
        assertThat(args.table("table")).isEqualTo(TablePath.of("shop", "orders"));
        assertThat(args.integer("limit", 10, 1, 100)).isEqualTo(5);
        assertThat(args.integer("absent", 10, 1, 100)).isEqualTo(10);
        assertThat(args.object("key")).containsEntry("id", 1);
        assertThat(new ToolArguments("t", null).optionalString("x")).isEmpty();
    }

    @Test
    void namesTheArgumentThatIsWrong() {
        ToolArguments args = new ToolArguments("sample", Map.of("table", "orders", "limit", 2.5, "big", 1000,
                "key", List.of(1), "sql", 3));
        assertInvalid(() -> args.table("table"), "Tool sample takes 'table' as database.table, got 'orders'");
        assertInvalid(() -> args.integer("limit", 10, 1, 100), "Tool sample takes 'limit' as a whole number, got "
                + "the number 2.5");
        assertInvalid(() -> args.integer("big", 10, 1, 100), "Tool sample takes 'big' from 1 to 100, got 1000");
        assertInvalid(() -> args.object("key"), "Tool sample takes 'key' as a JSON object, got an array");
        assertInvalid(() -> args.string("sql"), "Tool sample takes 'sql' as a string, got the number 3");
        assertInvalid(() -> args.string("missing"), "Tool sample needs the argument 'missing'");
        assertInvalid(() -> new ToolArguments("t", Map.of("table", "a.b.c")).table("table"),
                "Tool t takes 'table' as database.table, got 'a.b.c'");
    }

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ServiceException.class, e -> {
            assertThat(e.kind()).isEqualTo(FailureKind.INVALID_ARGUMENT);
            assertThat(e).hasMessage(message);
        });
    }
}
