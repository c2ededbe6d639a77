package dev.riffle.pgwire.types;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PgTextSinkTest {
    @Test
    void arraysArePostgresArrayLiteralsWithQuotesWhereArrayOutPutsThem() {
        PgTextSink text = new PgTextSink();
        text.startArray(5);
        text.stringValue("a b");
        text.stringValue("c");
        text.nullValue();
        text.stringValue("say \"hi\"");
        text.stringValue("");
        text.endArray();
        assertThat(text.take()).contains("{\"a b\",c,NULL,\"say \\\"hi\\\"\",\"\"}");
    }

    @Test
    void nestedArraysNest() {
        PgTextSink text = new PgTextSink();
        text.startArray(2);
        text.startArray(2);
        text.integerValue(1);
        text.integerValue(2);
        text.endArray();
        text.startArray(0);
        text.endArray();
        text.endArray();
        assertThat(text.take()).contains("{{1,2},{}}");
    }

    @Test
    void mapsAndRowsAreJsonAndInsideAnArrayAQuotedElement() {
        PgTextSink text = new PgTextSink();
        text.startMap(1);
        text.stringValue("k");
        text.startArray(2); // an array inside JSON is a JSON array, not a PostgreSQL literal
        text.integerValue(1);
        text.nullValue();
        text.endArray();
        text.endMap();
        assertThat(text.take()).contains("{\"k\":[1,null]}");

        text.startArray(1);
        text.startRow(1);
        text.fieldName("x");
        text.booleanValue(true);
        text.endRow();
        text.endArray();
        assertThat(text.take()).contains("{\"{\\\"x\\\":true}\"}");
    }
}
