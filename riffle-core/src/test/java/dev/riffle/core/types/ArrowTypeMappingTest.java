package dev.riffle.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.ArrowUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Fluss types become the Arrow layout Fluss writes, and come back unchanged. */
class ArrowTypeMappingTest {

    /** The unit each TIME/TIMESTAMP precision 0..9 is written in, restated from the Fluss wire format. */
    private static final TimeUnit[] UNIT = {
        TimeUnit.SECOND,
        TimeUnit.MILLISECOND, TimeUnit.MILLISECOND, TimeUnit.MILLISECOND,
        TimeUnit.MICROSECOND, TimeUnit.MICROSECOND, TimeUnit.MICROSECOND,
        TimeUnit.NANOSECOND, TimeUnit.NANOSECOND, TimeUnit.NANOSECOND
    };

    private record Case(DataType type, ArrowType arrow) {}

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>(List.of(
                new Case(DataTypes.BOOLEAN(), ArrowType.Bool.INSTANCE),
                new Case(DataTypes.TINYINT(), new ArrowType.Int(8, true)),
                new Case(DataTypes.SMALLINT(), new ArrowType.Int(16, true)),
                new Case(DataTypes.INT(), new ArrowType.Int(32, true)),
                new Case(DataTypes.BIGINT(), new ArrowType.Int(64, true)),
                new Case(DataTypes.FLOAT(), new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
                new Case(DataTypes.DOUBLE(), new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
                new Case(DataTypes.DECIMAL(10, 2), new ArrowType.Decimal(10, 2, 128)),
                new Case(DataTypes.DECIMAL(38, 18), new ArrowType.Decimal(38, 18, 128)),
                new Case(DataTypes.CHAR(5), ArrowType.Utf8.INSTANCE),
                new Case(DataTypes.STRING(), ArrowType.Utf8.INSTANCE),
                new Case(DataTypes.BINARY(4), new ArrowType.FixedSizeBinary(4)),
                new Case(DataTypes.BYTES(), ArrowType.Binary.INSTANCE),
                new Case(DataTypes.DATE(), new ArrowType.Date(DateUnit.DAY)),
                new Case(DataTypes.ARRAY(DataTypes.INT()), ArrowType.List.INSTANCE),
                new Case(DataTypes.ARRAY(DataTypes.STRING().copy(false)), ArrowType.List.INSTANCE),
                new Case(DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()), new ArrowType.Map(false)),
                new Case(nestedRow(), ArrowType.Struct.INSTANCE)));
        for (int p = 0; p <= 9; p++) {
            int width = p <= 3 ? 32 : 64;
            cases.add(new Case(DataTypes.TIME(p), new ArrowType.Time(UNIT[p], width)));
            cases.add(new Case(DataTypes.TIMESTAMP(p), new ArrowType.Timestamp(UNIT[p], null)));
            cases.add(new Case(DataTypes.TIMESTAMP_LTZ(p), new ArrowType.Timestamp(UNIT[p], "UTC")));
        }
        return cases;
    }

    /** A ROW holding a nested ROW and an ARRAY of ROW, with metadata-bearing types at depth. */
    private static RowType nestedRow() {
        return DataTypes.ROW(
                DataTypes.FIELD("id", DataTypes.INT().copy(false)),
                DataTypes.FIELD("inner", DataTypes.ROW(
                        DataTypes.FIELD("code", DataTypes.CHAR(3)),
                        DataTypes.FIELD("at", DataTypes.TIMESTAMP(2).copy(false)))),
                DataTypes.FIELD("items", DataTypes.ARRAY(DataTypes.ROW(
                        DataTypes.FIELD("k", DataTypes.STRING().copy(false)),
                        DataTypes.FIELD("v", DataTypes.DECIMAL(10, 2))))));
    }

    static Stream<Arguments> everyTypeBothNullabilities() {
        return cases().stream().flatMap(c -> Stream.of(
                Arguments.of(c.type().copy(true), c.arrow()),
                Arguments.of(c.type().copy(false), c.arrow())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyTypeBothNullabilities")
    void roundTripsThroughTheFlussLayout(DataType type, ArrowType expected) {
        Field field = ArrowTypeMapping.toArrowField("f", type);

        assertThat(field.getType()).isEqualTo(expected);
        assertThat(field.isNullable()).isEqualTo(type.isNullable());
        assertThat(ArrowTypeMapping.toFlussType(field)).isEqualTo(type);
        try (BufferAllocator allocator = new RootAllocator()) {
            try (FieldVector vector = field.createVector(allocator)) {
                vector.allocateNew();
                // The vector must keep the metadata too, or a schema taken from it would lose CHAR and precision.
                assertThat(ArrowTypeMapping.toFlussType(vector.getField())).isEqualTo(type);
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void layoutIsExactlyWhatFlussWrites() {
        // Fluss's own converter is the wire contract; TIMESTAMP_LTZ differs only in its zone (next test).
        List<DataField> fields = new ArrayList<>();
        for (Case c : cases()) {
            if (!c.type().is(DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE)) {
                fields.add(DataTypes.FIELD("c" + fields.size(), c.type()));
                fields.add(DataTypes.FIELD("c" + fields.size(), c.type().copy(false)));
            }
        }
        RowType rowType = new RowType(fields);

        List<String> ours = ArrowTypeMapping.toArrowSchema(rowType).getFields().stream()
                .map(Field::toString).toList();
        List<String> fluss = ArrowUtils.toArrowSchema(rowType).getFields().stream()
                .map(Object::toString).toList();
        assertThat(ours).isEqualTo(fluss);
    }

    @Test
    void instantsDifferFromFlussOnlyInTheZone() {
        for (int p = 0; p <= 9; p++) {
            RowType rowType = DataTypes.ROW(DataTypes.FIELD("at", DataTypes.TIMESTAMP_LTZ(p)));
            String fluss = ArrowUtils.toArrowSchema(rowType).getFields().get(0).toString();
            String ours = ArrowTypeMapping.toArrowSchema(rowType).getFields().get(0).toString();
            assertThat(fluss).isEqualTo("at: Timestamp(" + UNIT[p] + ", null)");
            assertThat(ours).isEqualTo("at: Timestamp(" + UNIT[p] + ", UTC)");
        }
    }

    @Test
    void metadataIsWrittenOnlyWhereArrowFallsShort() {
        assertThat(ArrowTypeMapping.toArrowField("c", DataTypes.CHAR(5)).getMetadata())
                .containsExactlyInAnyOrderEntriesOf(Map.of("fluss.type.root", "CHAR", "fluss.length", "5"));
        assertThat(ArrowTypeMapping.toArrowField("t", DataTypes.TIME(2)).getMetadata())
                .containsExactlyEntriesOf(Map.of("fluss.precision", "2"));
        assertThat(ArrowTypeMapping.toArrowField("t", DataTypes.TIMESTAMP(6)).getMetadata()).isEmpty();
        assertThat(ArrowTypeMapping.toArrowField("s", DataTypes.STRING()).getMetadata()).isEmpty();
    }

    @Test
    void schemaRoundTripKeepsFieldIdsDescriptionsAndNotNullRow() {
        RowType table = org.apache.fluss.metadata.Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("point", DataTypes.ROW(DataTypes.FIELD("x", DataTypes.DOUBLE())))
                .primaryKey("id")
                .build()
                .getRowType();
        RowType described = new RowType(false, List.of(
                new DataField("name", DataTypes.CHAR(8), "display name", 7),
                new DataField("at", DataTypes.TIMESTAMP_LTZ(3), "when it happened", 8)));

        for (RowType rowType : List.of(table, described)) {
            Schema schema = ArrowTypeMapping.toArrowSchema(rowType);
            RowType back = ArrowTypeMapping.toRowType(schema);
            assertThat(back).isEqualTo(rowType);
            assertThat(back.equalsWithFieldId(rowType)).isTrue();
            try (BufferAllocator allocator = new RootAllocator()) {
                VectorSchemaRoot.create(schema, allocator).close();
                assertThat(allocator.getAllocatedMemory()).isZero();
            }
        }
    }

    static Stream<Arguments> arrowWithoutFlussMetadata() {
        Field key = new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null);
        Field value = arrow("value", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
        Field keyValue = new Field("key_value", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(key, value));
        return Stream.of(
                Arguments.of(arrow("f", ArrowType.Utf8.INSTANCE), DataTypes.STRING()),
                Arguments.of(arrow("f", ArrowType.LargeUtf8.INSTANCE), DataTypes.STRING()),
                Arguments.of(arrow("f", ArrowType.Binary.INSTANCE), DataTypes.BYTES()),
                Arguments.of(arrow("f", ArrowType.LargeBinary.INSTANCE), DataTypes.BYTES()),
                Arguments.of(arrow("f", new ArrowType.FixedSizeBinary(3)), DataTypes.BINARY(3)),
                Arguments.of(arrow("f", new ArrowType.Int(8, true)), DataTypes.TINYINT()),
                Arguments.of(arrow("f", new ArrowType.Int(16, true)), DataTypes.SMALLINT()),
                Arguments.of(arrow("f", new ArrowType.Int(32, true)), DataTypes.INT()),
                Arguments.of(arrow("f", new ArrowType.Int(64, true)), DataTypes.BIGINT()),
                Arguments.of(arrow("f", new ArrowType.Decimal(20, 4, 128)), DataTypes.DECIMAL(20, 4)),
                Arguments.of(arrow("f", new ArrowType.Time(TimeUnit.SECOND, 32)), DataTypes.TIME(0)),
                Arguments.of(arrow("f", new ArrowType.Time(TimeUnit.MILLISECOND, 32)), DataTypes.TIME(3)),
                Arguments.of(arrow("f", new ArrowType.Time(TimeUnit.MICROSECOND, 64)), DataTypes.TIME(6)),
                Arguments.of(arrow("f", new ArrowType.Time(TimeUnit.NANOSECOND, 64)), DataTypes.TIME(9)),
                Arguments.of(arrow("f", new ArrowType.Timestamp(TimeUnit.SECOND, null)), DataTypes.TIMESTAMP(0)),
                Arguments.of(arrow("f", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)), DataTypes.TIMESTAMP(3)),
                Arguments.of(arrow("f", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)), DataTypes.TIMESTAMP(6)),
                Arguments.of(arrow("f", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)), DataTypes.TIMESTAMP(9)),
                Arguments.of(arrow("f", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC")),
                        DataTypes.TIMESTAMP_LTZ(3)),
                Arguments.of(arrow("f", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "Europe/Paris")),
                        DataTypes.TIMESTAMP_LTZ(6)),
                Arguments.of(arrow("f", ArrowType.List.INSTANCE, arrow("$data$", new ArrowType.Int(32, true))),
                        DataTypes.ARRAY(DataTypes.INT())),
                Arguments.of(arrow("f", ArrowType.LargeList.INSTANCE, arrow("item", ArrowType.Bool.INSTANCE)),
                        DataTypes.ARRAY(DataTypes.BOOLEAN())),
                Arguments.of(arrow("f", new ArrowType.Map(true), keyValue),
                        DataTypes.MAP(DataTypes.STRING().copy(false), DataTypes.DOUBLE())),
                Arguments.of(arrow("f", ArrowType.Struct.INSTANCE,
                                arrow("a", new ArrowType.Int(64, true)), arrow("b", ArrowType.Bool.INSTANCE)),
                        DataTypes.ROW(
                                DataTypes.FIELD("a", DataTypes.BIGINT()), DataTypes.FIELD("b", DataTypes.BOOLEAN()))),
                Arguments.of(new Field("f", FieldType.notNullable(ArrowType.Bool.INSTANCE), null),
                        DataTypes.BOOLEAN().copy(false)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("arrowWithoutFlussMetadata")
    void arrowFromElsewhereMapsToTheWidestFlussType(Field field, DataType expected) {
        assertThat(ArrowTypeMapping.toFlussType(field)).isEqualTo(expected);
    }

    static Stream<Arguments> unsupportedArrow() {
        DictionaryEncoding dictionary = new DictionaryEncoding(1, false, new ArrowType.Int(32, true));
        return Stream.of(
                Arguments.of(arrow("bad", new ArrowType.Date(DateUnit.MILLISECOND)), "32-bit days since epoch"),
                Arguments.of(arrow("bad", new ArrowType.Int(32, false)), "Fluss integers are signed"),
                Arguments.of(arrow("bad", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)), "16-bit"),
                Arguments.of(arrow("bad", new ArrowType.Decimal(10, 2, 256)), "128-bit"),
                Arguments.of(arrow("bad", new ArrowType.Decimal(10, -2, 128)), "scale"),
                Arguments.of(arrow("bad", ArrowType.Null.INSTANCE), "no Fluss type matches it"),
                Arguments.of(arrow("bad", new ArrowType.Duration(TimeUnit.SECOND)), "no Fluss type matches it"),
                Arguments.of(arrow("bad", new ArrowType.FixedSizeList(2), arrow("x", ArrowType.Bool.INSTANCE)),
                        "no Fluss type matches it"),
                Arguments.of(new Field("bad", new FieldType(true, new ArrowType.Int(8, true), dictionary), null),
                        "dictionary-encoded"),
                Arguments.of(arrow("bad", new ArrowType.Time(TimeUnit.MILLISECOND, 32), Map.of("fluss.precision", "5")),
                        "fluss.precision=5 does not fit unit MILLISECOND, which holds precision 1-3"),
                Arguments.of(arrow("bad", new ArrowType.Int(32, true), Map.of("fluss.type.root", "CHAR")),
                        "contradicts"),
                Arguments.of(arrow("bad", ArrowType.Utf8.INSTANCE, Map.of("fluss.type.root", "CHAR")),
                        "fluss.length"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unsupportedArrow")
    void unsupportedArrowIsRejectedNamingTheField(Field bad, String reason) {
        Field outer = arrow("outer", ArrowType.Struct.INSTANCE, bad);
        assertThatThrownBy(() -> ArrowTypeMapping.toRowType(new Schema(List.of(outer))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Field 'outer.bad' has unsupported Arrow type " + bad.getType())
                .hasMessageContaining(reason)
                .hasMessageEndingWith("Supported Arrow types: Bool, Int(8/16/32/64, signed), "
                        + "FloatingPoint(SINGLE/DOUBLE), Utf8, LargeUtf8, Binary, LargeBinary, FixedSizeBinary, "
                        + "Decimal(128-bit), Date(DAY), Time, Timestamp, List, LargeList, Map, Struct");
    }

    @Test
    void duplicateStructChildrenAreRejected() {
        Field twice = arrow("p", ArrowType.Struct.INSTANCE,
                arrow("x", ArrowType.Bool.INSTANCE), arrow("x", ArrowType.Utf8.INSTANCE));
        assertThatThrownBy(() -> ArrowTypeMapping.toFlussType(twice))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Field 'p.x' appears twice; Fluss row fields need unique names");
    }

    private static Field arrow(String name, ArrowType type, Field... children) {
        return new Field(name, FieldType.nullable(type), List.of(children));
    }

    private static Field arrow(String name, ArrowType type, Map<String, String> metadata) {
        return new Field(name, new FieldType(true, type, null, metadata), null);
    }
}
