package dev.riffle.cli.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.NullableStructWriter;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.complex.impl.UnionMapWriter;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** How values of every kind Riffle reads look in CSV and JSON, and Arrow output round-trips. */
class RowWritersTest {
    private static final long JUNE_1_MILLIS = Instant.parse("2024-06-01T00:00:00Z").toEpochMilli();

    private BufferAllocator allocator;

    @BeforeEach
    void allocator() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void noLeaks() {
        assertThat(allocator.getAllocatedMemory()).as("Arrow bytes still allocated").isZero();
        allocator.close();
    }

    @Test
    void csvQuotesWhatNeedsItAndKeepsNullApartFromEmpty() throws Exception {
        try (VectorSchemaRoot rows = everyKindOfValue()) {
            StringWriter out = new StringWriter();
            try (RowWriter writer = new CsvRowWriter(out, rows.getSchema())) {
                writer.start();
                writer.write(rows);
                writer.finish();
            }
            assertThat(out.toString()).isEqualTo(""
                    + "id,name,ok,price,payload,day,at_ltz,at_ntz,at_time,tags,attrs,point\r\n"
                    + "1,plain,true,12.30000000,AQID,2024-06-01,2024-06-01T00:00:00.123456Z,2024-06-01T00:00:01.500,"
                    + "10:15:00,\"[1,2]\",\"{\"\"7\"\":70}\",\"{\"\"x\"\":1,\"\"label\"\":\"\"p\"\"}\"\r\n"
                    + "2,\"a,b \"\"q\"\"\nx\",false,0.00000001,\"\",,,,,[],{},\"{\"\"x\"\":3,\"\"label\"\":null}\"\r\n"
                    + ",,,,,,,,,,,\r\n");
        }
    }

    @Test
    void jsonLinesKeepNumbersAndNesting() throws Exception {
        try (VectorSchemaRoot rows = everyKindOfValue()) {
            StringWriter out = new StringWriter();
            try (RowWriter writer = new JsonRowWriter(out)) {
                writer.start();
                writer.write(rows);
                writer.finish();
            }
            assertThat(out.toString()).isEqualTo(""
                    + "{\"id\":1,\"name\":\"plain\",\"ok\":true,\"price\":12.30000000,\"payload\":\"AQID\","
                    + "\"day\":\"2024-06-01\",\"at_ltz\":\"2024-06-01T00:00:00.123456Z\","
                    + "\"at_ntz\":\"2024-06-01T00:00:01.500\",\"at_time\":\"10:15:00\",\"tags\":[1,2],"
                    + "\"attrs\":{\"7\":70},\"point\":{\"x\":1,\"label\":\"p\"}}\n"
                    + "{\"id\":2,\"name\":\"a,b \\\"q\\\"\\nx\",\"ok\":false,\"price\":0.00000001,\"payload\":\"\","
                    + "\"day\":null,\"at_ltz\":null,\"at_ntz\":null,\"at_time\":null,\"tags\":[],\"attrs\":{},"
                    + "\"point\":{\"x\":3,\"label\":null}}\n"
                    + "{\"id\":null,\"name\":null,\"ok\":null,\"price\":null,\"payload\":null,\"day\":null,"
                    + "\"at_ltz\":null,\"at_ntz\":null,\"at_time\":null,\"tags\":null,\"attrs\":null,\"point\":null}\n");
        }
    }

    @Test
    void arrowStreamRoundTripsEveryBatch() throws Exception {
        Schema schema = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true))));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (RowWriter writer = new ArrowStreamRowWriter(bytes, schema, allocator)) {
            writer.start();
            for (int batch = 0; batch < 3; batch++) {
                try (VectorSchemaRoot rows = VectorSchemaRoot.create(schema, allocator)) {
                    BigIntVector id = (BigIntVector) rows.getVector(0);
                    for (int i = 0; i < 2; i++) {
                        id.setSafe(i, batch * 2L + i);
                    }
                    rows.setRowCount(2);
                    writer.write(rows);
                }
            }
            writer.finish();
        }
        List<Long> ids = new ArrayList<>();
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(bytes.toByteArray()), allocator)) {
            assertThat(reader.getVectorSchemaRoot().getSchema()).isEqualTo(schema);
            while (reader.loadNextBatch()) {
                BigIntVector id = (BigIntVector) reader.getVectorSchemaRoot().getVector(0);
                for (int i = 0; i < id.getValueCount(); i++) {
                    ids.add(id.get(i));
                }
            }
        }
        assertThat(ids).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
    }

    @Test
    void arrowStreamOfNoRowsStillHasTheSchema() throws Exception {
        Schema schema = new Schema(List.of(Field.nullable("id", new ArrowType.Int(32, true))));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (RowWriter writer = new ArrowStreamRowWriter(bytes, schema, allocator)) {
            writer.start();
            writer.finish();
        }
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(bytes.toByteArray()), allocator)) {
            assertThat(reader.getVectorSchemaRoot().getSchema()).isEqualTo(schema);
            assertThat(reader.loadNextBatch()).isFalse();
        }
    }

    /** Three rows: every kind filled, edge cases (quotes, empties, a tiny decimal), all null. */
    private VectorSchemaRoot everyKindOfValue() {
        Field tagElement = Field.nullable("element", new ArrowType.Int(32, true));
        Field entries = new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(
                Field.notNullable("key", new ArrowType.Int(32, true)),
                Field.nullable("value", new ArrowType.Int(32, true))));
        Schema schema = new Schema(List.of(
                Field.nullable("id", new ArrowType.Int(32, true)),
                Field.nullable("name", ArrowType.Utf8.INSTANCE),
                Field.nullable("ok", ArrowType.Bool.INSTANCE),
                Field.nullable("price", new ArrowType.Decimal(18, 8, 128)),
                Field.nullable("payload", ArrowType.Binary.INSTANCE),
                Field.nullable("day", new ArrowType.Date(DateUnit.DAY)),
                Field.nullable("at_ltz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
                Field.nullable("at_ntz", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
                Field.nullable("at_time", new ArrowType.Time(TimeUnit.MILLISECOND, 32)),
                new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE), List.of(tagElement)),
                new Field("attrs", FieldType.nullable(new ArrowType.Map(false)), List.of(entries)),
                new Field("point", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                        Field.nullable("x", new ArrowType.Int(32, true)),
                        Field.nullable("label", ArrowType.Utf8.INSTANCE)))));
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        root.allocateNew();

        IntVector id = (IntVector) root.getVector("id");
        id.setSafe(0, 1);
        id.setSafe(1, 2);
        VarCharVector name = (VarCharVector) root.getVector("name");
        name.setSafe(0, "plain".getBytes(StandardCharsets.UTF_8));
        name.setSafe(1, "a,b \"q\"\nx".getBytes(StandardCharsets.UTF_8));
        BitVector ok = (BitVector) root.getVector("ok");
        ok.setSafe(0, 1);
        ok.setSafe(1, 0);
        DecimalVector price = (DecimalVector) root.getVector("price");
        price.setSafe(0, new BigDecimal("12.30000000"));
        price.setSafe(1, new BigDecimal("0.00000001"));
        VarBinaryVector payload = (VarBinaryVector) root.getVector("payload");
        payload.setSafe(0, new byte[] {1, 2, 3});
        payload.setSafe(1, new byte[0]);
        ((DateDayVector) root.getVector("day")).setSafe(0, (int) LocalDate.of(2024, 6, 1).toEpochDay());
        ((TimeStampMicroTZVector) root.getVector("at_ltz")).setSafe(0, JUNE_1_MILLIS * 1000 + 123_456);
        ((TimeStampMilliVector) root.getVector("at_ntz")).setSafe(0, JUNE_1_MILLIS + 1_500);
        ((TimeMilliVector) root.getVector("at_time")).setSafe(0, (10 * 3600 + 15 * 60) * 1000);

        UnionListWriter tags = ((ListVector) root.getVector("tags")).getWriter();
        tags.setPosition(0);
        tags.startList();
        tags.writeInt(1);
        tags.writeInt(2);
        tags.endList();
        tags.setPosition(1);
        tags.startList();
        tags.endList();

        UnionMapWriter attrs = ((MapVector) root.getVector("attrs")).getWriter();
        attrs.setPosition(0);
        attrs.startMap();
        attrs.startEntry();
        attrs.key().integer().writeInt(7);
        attrs.value().integer().writeInt(70);
        attrs.endEntry();
        attrs.endMap();
        attrs.setPosition(1);
        attrs.startMap();
        attrs.endMap();

        StructVector pointVector = (StructVector) root.getVector("point");
        NullableStructWriter point = pointVector.getWriter();
        point.setPosition(0);
        point.start();
        point.integer("x").writeInt(1);
        point.end();
        ((VarCharVector) pointVector.getChild("label")).setSafe(0, "p".getBytes(StandardCharsets.UTF_8));
        point.setPosition(1);
        point.start();
        point.integer("x").writeInt(3);
        point.end();

        root.setRowCount(3);
        return root;
    }
}
