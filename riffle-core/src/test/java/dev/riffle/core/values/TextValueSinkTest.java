package dev.riffle.core.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class TextValueSinkTest {
    @Test
    void scalarsAreTheirTextAndNullIsEmpty() {
        TextValueSink text = new TextValueSink();
        text.decimalValue(new BigDecimal("-12.30"));
        assertThat(text.take()).contains("-12.30");
        text.booleanValue(true);
        assertThat(text.take()).contains("true");
        text.nullValue();
        assertThat(text.take()).isEmpty();
    }

    @Test
    void aNestedValueIsItsJsonTextAtAnyDepth() {
        TextValueSink text = new TextValueSink();
        text.startRow(2);
        text.fieldName("id");
        text.integerValue(7);
        text.fieldName("tags");
        text.startArray(2);
        text.stringValue("a");
        text.startMap(1);
        text.stringValue("k");
        text.nullValue();
        text.endMap();
        text.endArray();
        text.endRow();
        assertThat(text.take()).contains("{\"id\":7,\"tags\":[\"a\",{\"k\":null}]}");
        // The sink is ready for the next value, a scalar again.
        text.integerValue(3);
        assertThat(text.take()).contains("3");
    }

    @Test
    void takingWhileANestedValueIsOpenFails() {
        TextValueSink text = new TextValueSink();
        text.startArray(1);
        assertThatThrownBy(text::take).isInstanceOf(IllegalStateException.class).hasMessageContaining("still open");
    }
}
