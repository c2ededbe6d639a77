package dev.riffle.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TimeStampNanoTZVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TimeStampSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.fluss.memory.MemorySegment;
import org.apache.fluss.metadata.KvFormat;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.row.encode.RowEncoder;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rows written by {@link RowArrowWriter} hold exactly the Arrow values Fluss puts on the wire: the expectations
 * restate {@link AllTypesReadIT}, which checks them against a real cluster.
 */
class RowArrowWriterTest {
    private static final LocalDateTime WHEN = LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_789);
    private static final Instant INSTANT = WHEN.toInstant(ZoneOffset.UTC);

    /** The table of {@link AllTypesReadIT}: every Fluss type, each TIME/TIMESTAMP unit, nested types, a NOT NULL. */
    private static final RowType ALL_TYPES = DataTypes.ROW(
            DataTypes.FIELD("b", DataTypes.BOOLEAN()), DataTypes.FIELD("ti", DataTypes.TINYINT()),
            DataTypes.FIELD("si", DataTypes.SMALLINT()), DataTypes.FIELD("i", DataTypes.INT()),
            DataTypes.FIELD("bi", DataTypes.BIGINT()), DataTypes.FIELD("f", DataTypes.FLOAT()),
            DataTypes.FIELD("d", DataTypes.DOUBLE()), DataTypes.FIELD("dec_small", DataTypes.DECIMAL(10, 2)),
            DataTypes.FIELD("dec_big", DataTypes.DECIMAL(38, 18)), DataTypes.FIELD("ch", DataTypes.CHAR(5)),
            DataTypes.FIELD("s", DataTypes.STRING()), DataTypes.FIELD("bin", DataTypes.BINARY(4)),
            DataTypes.FIELD("by", DataTypes.BYTES()), DataTypes.FIELD("dt", DataTypes.DATE()),
            DataTypes.FIELD("t0", DataTypes.TIME(0)), DataTypes.FIELD("t3", DataTypes.TIME(3)),
            DataTypes.FIELD("t6", DataTypes.TIME(6)), DataTypes.FIELD("t9", DataTypes.TIME(9)),
            DataTypes.FIELD("ts0", DataTypes.TIMESTAMP(0)), DataTypes.FIELD("ts3", DataTypes.TIMESTAMP(3)),
            DataTypes.FIELD("ts6", DataTypes.TIMESTAMP(6)), DataTypes.FIELD("ts9", DataTypes.TIMESTAMP(9)),
            DataTypes.FIELD("ltz3", DataTypes.TIMESTAMP_LTZ(3)), DataTypes.FIELD("ltz6", DataTypes.TIMESTAMP_LTZ(6)),
            DataTypes.FIELD("ltz9", DataTypes.TIMESTAMP_LTZ(9)),
            DataTypes.FIELD("arr", DataTypes.ARRAY(DataTypes.INT())),
            DataTypes.FIELD("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT())),
            DataTypes.FIELD("r", DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT()),
                    DataTypes.FIELD("inner", DataTypes.ROW(DataTypes.FIELD("y", DataTypes.STRING()))))),
            DataTypes.FIELD("nn", DataTypes.INT().copy(false)));

    @Test
    void everyTypeIsWrittenAsFlussWritesIt() {
        try (BufferAllocator allocator = new RootAllocator()) {
            try (RowArrowWriter writer = RowArrowWriter.create(ALL_TYPES, allocator)) {
                writer.write(fullRow());
                writer.write(nullRow(-1));
                assertThat(writer.rowCount()).isEqualTo(2);
                try (VectorSchemaRoot root = writer.finish()) {
                    assertThat(root.getSchema()).isEqualTo(ArrowTypeMapping.toArrowSchema(ALL_TYPES));
                    assertThat(root.getRowCount()).isEqualTo(2);
                    assertFullRow(root, 0);
                    assertNullRow(root, 1);
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    /**
     * Lookups hand back binary rows, not GenericRows: their strings and decimals live in Fluss memory segments, and
     * an INDEXED row pads CHAR(5) "abc" with zero bytes, which must not reach Arrow.
     */
    @ParameterizedTest
    @EnumSource(KvFormat.class)
    void binaryRowsFromTheClientAreWrittenTheSame(KvFormat format) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                RowEncoder encoder = RowEncoder.create(format, ALL_TYPES)) {
            try (RowArrowWriter writer = RowArrowWriter.create(ALL_TYPES, allocator)) {
                // Written at once: the encoder reuses its buffer for the next row.
                writer.write(encode(encoder, fullRow()));
                writer.write(encode(encoder, nullRow(-1)));
                try (VectorSchemaRoot root = writer.finish()) {
                    assertFullRow(root, 0);
                    assertNullRow(root, 1);
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void nestedValuesKeepTheirNullsAndEmptiness() {
        RowType type = DataTypes.ROW(
                DataTypes.FIELD("arr", DataTypes.ARRAY(DataTypes.STRING())),
                DataTypes.FIELD("m", DataTypes.MAP(DataTypes.INT(), DataTypes.ARRAY(DataTypes.INT()))),
                DataTypes.FIELD("r", DataTypes.ROW(
                        DataTypes.FIELD("a", DataTypes.ROW(
                                DataTypes.FIELD("b", DataTypes.INT()),
                                DataTypes.FIELD("c", DataTypes.ARRAY(DataTypes.STRING())))),
                        DataTypes.FIELD("d", DataTypes.STRING()))),
                DataTypes.FIELD("rows", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT())))));
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(1, GenericArray.of(1, 2));
        map.put(2, null);
        GenericRow full = GenericRow.of(
                GenericArray.of(str("a"), null, str("")),
                new GenericMap(map),
                GenericRow.of(GenericRow.of(null, GenericArray.of(str("z"))), null),
                GenericArray.of(GenericRow.of(1), null));
        GenericRow empty = GenericRow.of(
                GenericArray.of(), new GenericMap(Map.of()), GenericRow.of(null, str("q")), GenericArray.of());
        try (BufferAllocator allocator = new RootAllocator()) {
            try (RowArrowWriter writer = RowArrowWriter.create(type, allocator)) {
                writer.write(full);
                writer.write(empty);
                writer.write(new GenericRow(4));
                try (VectorSchemaRoot root = writer.finish()) {
                    ListVector arr = (ListVector) root.getVector("arr");
                    assertThat(arr.getObject(0)).asString().isEqualTo("[\"a\",null,\"\"]");
                    assertThat(arr.getObject(1)).isEmpty();
                    assertThat(arr.isNull(2)).isTrue();

                    MapVector m = (MapVector) root.getVector("m");
                    List<?> entries = m.getObject(0);
                    assertThat(entries).hasSize(2);
                    assertThat(entries.get(0)).asString().isEqualTo("{\"key\":1,\"value\":[1,2]}");
                    assertThat(entries.get(1)).asString().isEqualTo("{\"key\":2}");
                    assertThat(m.getObject(1)).isEmpty();
                    assertThat(m.isNull(2)).isTrue();

                    StructVector r = (StructVector) root.getVector("r");
                    assertThat(r.getObject(0)).asString().isEqualTo("{\"a\":{\"c\":[\"z\"]}}");
                    assertThat(r.getObject(1)).asString().isEqualTo("{\"d\":\"q\"}");
                    assertThat(r.isNull(2)).isTrue();
                    // A null row leaves its fields null too, not merely hidden behind the parent's bit.
                    StructVector a = (StructVector) r.getChild("a");
                    assertThat(a.isNull(1)).isTrue();
                    assertThat(a.isNull(2)).isTrue();
                    assertThat(r.getChild("d").isNull(2)).isTrue();

                    ListVector rows = (ListVector) root.getVector("rows");
                    assertThat(rows.getObject(0)).asString().isEqualTo("[{\"x\":1},null]");
                    assertThat(rows.getObject(1)).isEmpty();
                    assertThat(rows.isNull(2)).isTrue();
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void finishCutsBatchesTheCallerOwns() {
        RowType type = DataTypes.ROW(
                DataTypes.FIELD("id", DataTypes.INT().copy(false)), DataTypes.FIELD("s", DataTypes.STRING()));
        try (BufferAllocator allocator = new RootAllocator()) {
            VectorSchemaRoot first;
            VectorSchemaRoot second;
            VectorSchemaRoot third;
            try (RowArrowWriter writer = RowArrowWriter.create(type, allocator)) {
                for (int id = 1; id <= 3; id++) {
                    writer.write(GenericRow.of(id, str("row " + id)));
                }
                first = writer.finish();
                assertThat(writer.rowCount()).isZero();
                writer.write(GenericRow.of(4, null));
                writer.write(GenericRow.of(5, str("row 5")));
                second = writer.finish();
                third = writer.finish();
            }
            // The writer is closed; the batches it handed out are still the caller's to read.
            try (first; second; third) {
                assertThat(first.getRowCount()).isEqualTo(3);
                assertThat(ints(first, "id")).containsExactly(1, 2, 3);
                assertThat(first.getVector("s").getObject(2)).asString().isEqualTo("row 3");
                assertThat(second.getRowCount()).isEqualTo(2);
                assertThat(ints(second, "id")).containsExactly(4, 5);
                assertThat(second.getVector("s").isNull(0)).isTrue();
                assertThat(second.getVector("s").getObject(1)).asString().isEqualTo("row 5");
                assertThat(third.getRowCount()).isZero();
                assertThat(third.getSchema()).isEqualTo(first.getSchema());
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    /** Expected rows -1: the writer's default size; 1: a writer sized for one looked-up row. */
    @ParameterizedTest
    @ValueSource(ints = {-1, 1})
    void vectorsGrowWellPastTheirInitialCapacity(int expectedRows) {
        int rows = 100_000;
        RowType type = DataTypes.ROW(
                DataTypes.FIELD("id", DataTypes.BIGINT().copy(false)),
                DataTypes.FIELD("s", DataTypes.STRING()),
                DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.INT())),
                DataTypes.FIELD("attrs", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
                DataTypes.FIELD("r", DataTypes.ROW(DataTypes.FIELD("x", DataTypes.DECIMAL(20, 3)))));
        try (BufferAllocator allocator = new RootAllocator()) {
            try (RowArrowWriter writer = expectedRows < 0 ? RowArrowWriter.create(type, allocator)
                    : RowArrowWriter.create(type, allocator, expectedRows)) {
                for (int i = 0; i < rows; i++) {
                    Object[] tags = new Object[i % 4];
                    for (int t = 0; t < tags.length; t++) {
                        tags[t] = i + t;
                    }
                    writer.write(GenericRow.of((long) i, str("value " + i), new GenericArray(tags),
                            GenericMap.of(str("k" + i), i), GenericRow.of(decimal(i + ".5", 20, 3))));
                }
                assertThat(writer.rowCount()).isEqualTo(rows);
                try (VectorSchemaRoot root = writer.finish()) {
                    assertThat(root.getRowCount()).isEqualTo(rows);
                    BigIntVector id = (BigIntVector) root.getVector("id");
                    VarCharVector s = (VarCharVector) root.getVector("s");
                    ListVector tags = (ListVector) root.getVector("tags");
                    MapVector attrs = (MapVector) root.getVector("attrs");
                    StructVector r = (StructVector) root.getVector("r");
                    for (int i = 0; i < rows; i++) {
                        assertThat(id.get(i)).isEqualTo(i);
                        assertThat(new String(s.get(i), StandardCharsets.UTF_8)).isEqualTo("value " + i);
                        assertThat(tags.getElementEndIndex(i) - tags.getElementStartIndex(i)).isEqualTo(i % 4);
                    }
                    assertThat(tags.getObject(rows - 1)).asString()
                            .isEqualTo("[" + (rows - 1) + "," + rows + "," + (rows + 1) + "]");
                    assertThat(attrs.getObject(rows - 1)).asString()
                            .isEqualTo("[{\"key\":\"k" + (rows - 1) + "\",\"value\":" + (rows - 1) + "}]");
                    assertThat(((DecimalVector) r.getChild("x")).getObject(rows - 1))
                            .isEqualTo(new BigDecimal((rows - 1) + ".500"));
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void nullInANotNullFieldIsRejectedAndTheRowNotCounted() {
        RowType type = DataTypes.ROW(
                DataTypes.FIELD("s", DataTypes.STRING()),
                DataTypes.FIELD("arr", DataTypes.ARRAY(DataTypes.INT())),
                DataTypes.FIELD("r", DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT()))),
                DataTypes.FIELD("nn", DataTypes.INT().copy(false)));
        try (BufferAllocator allocator = new RootAllocator()) {
            try (RowArrowWriter writer = RowArrowWriter.create(type, allocator)) {
                GenericRow bad = GenericRow.of(str("junk"), GenericArray.of(9, 9, 9), GenericRow.of(9), null);
                assertThatThrownBy(() -> writer.write(bad))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("Field 'nn' is INT NOT NULL but the row holds null there");
                assertThat(writer.rowCount()).isZero();
                // The next rows take the failed row's place; none of its values show through.
                writer.write(GenericRow.of(null, null, null, 1));
                writer.write(GenericRow.of(str("ok"), GenericArray.of(1), GenericRow.of(2), 2));
                try (VectorSchemaRoot root = writer.finish()) {
                    assertThat(root.getRowCount()).isEqualTo(2);
                    assertThat(root.getVector("s").isNull(0)).isTrue();
                    assertThat(root.getVector("arr").isNull(0)).isTrue();
                    assertThat(root.getVector("r").isNull(0)).isTrue();
                    assertThat(((StructVector) root.getVector("r")).getChild("x").isNull(0)).isTrue();
                    assertThat(root.getVector("s").getObject(1)).asString().isEqualTo("ok");
                    assertThat(root.getVector("arr").getObject(1)).asString().isEqualTo("[1]");
                    assertThat(((ListVector) root.getVector("arr")).getDataVector().getValueCount()).isEqualTo(1);
                    assertThat(root.getVector("r").getObject(1)).asString().isEqualTo("{\"x\":2}");
                    assertThat(ints(root, "nn")).containsExactly(1, 2);
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void nullInANotNullNestedFieldNamesItsPath() {
        RowType type = DataTypes.ROW(
                DataTypes.FIELD("arr", DataTypes.ARRAY(DataTypes.INT().copy(false))),
                DataTypes.FIELD("m", DataTypes.MAP(DataTypes.STRING().copy(false), DataTypes.INT().copy(false))));
        try (BufferAllocator allocator = new RootAllocator()) {
            try (RowArrowWriter writer = RowArrowWriter.create(type, allocator)) {
                assertThatThrownBy(() -> writer.write(GenericRow.of(GenericArray.of(1, null), null)))
                        .hasMessage("Field 'arr.element' is INT NOT NULL but the row holds null there");
                assertThatThrownBy(() -> writer.write(GenericRow.of(null, GenericMap.of(str("k"), null))))
                        .hasMessage("Field 'm.entries.value' is INT NOT NULL but the row holds null there");
                writer.write(GenericRow.of(GenericArray.of(1, 2), GenericMap.of(str("k"), 3)));
                try (VectorSchemaRoot root = writer.finish()) {
                    assertThat(root.getRowCount()).isEqualTo(1);
                    assertThat(root.getVector("arr").getObject(0)).asString().isEqualTo("[1,2]");
                    assertThat(root.getVector("m").getObject(0)).asString()
                            .isEqualTo("[{\"key\":\"k\",\"value\":3}]");
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void stringsAreCopiedFromAnyMemorySegment() {
        byte[] utf8 = "héllo ✓".getBytes(StandardCharsets.UTF_8);
        // Two equal segments with the string straddling the boundary, as a row spanning pages can hold it.
        byte[] firstHalf = new byte[8];
        byte[] secondHalf = new byte[8];
        System.arraycopy(utf8, 0, firstHalf, 3, 5);
        System.arraycopy(utf8, 5, secondHalf, 0, utf8.length - 5);
        BinaryString spanning = BinaryString.fromAddress(
                new MemorySegment[] {MemorySegment.wrap(firstHalf), MemorySegment.wrap(secondHalf)}, 3, utf8.length);
        MemorySegment offHeap = MemorySegment.allocateOffHeapMemory(32);
        offHeap.put(7, utf8);
        BinaryString direct = BinaryString.fromAddress(new MemorySegment[] {offHeap}, 7, utf8.length);
        BinaryString slice = BinaryString.fromBytes(utf8, 1, utf8.length - 1);
        RowType type = DataTypes.ROW(DataTypes.FIELD("s", DataTypes.STRING()));
        try (BufferAllocator allocator = new RootAllocator()) {
            try (RowArrowWriter writer = RowArrowWriter.create(type, allocator)) {
                writer.write(GenericRow.of(spanning));
                writer.write(GenericRow.of(direct));
                writer.write(GenericRow.of(slice));
                try (VectorSchemaRoot root = writer.finish()) {
                    VarCharVector s = (VarCharVector) root.getVector("s");
                    assertThat(s.getObject(0)).asString().isEqualTo("héllo ✓");
                    assertThat(s.getObject(1)).asString().isEqualTo("héllo ✓");
                    assertThat(s.getObject(2)).asString().isEqualTo("éllo ✓");
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void timestampsBeforeTheEpochCountBackwards() {
        LocalDateTime before = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999);
        RowType type = DataTypes.ROW(
                DataTypes.FIELD("ts0", DataTypes.TIMESTAMP(0)), DataTypes.FIELD("ts3", DataTypes.TIMESTAMP(3)),
                DataTypes.FIELD("ts6", DataTypes.TIMESTAMP(6)), DataTypes.FIELD("ts9", DataTypes.TIMESTAMP(9)),
                DataTypes.FIELD("ltz0", DataTypes.TIMESTAMP_LTZ(0)),
                DataTypes.FIELD("ltz6", DataTypes.TIMESTAMP_LTZ(6)));
        GenericRow row = GenericRow.of(
                TimestampNtz.fromLocalDateTime(before.withNano(0)),
                TimestampNtz.fromLocalDateTime(before.withNano(999_000_000)),
                TimestampNtz.fromLocalDateTime(before.withNano(999_999_000)),
                TimestampNtz.fromLocalDateTime(before),
                TimestampLtz.fromInstant(before.withNano(0).toInstant(ZoneOffset.UTC)),
                TimestampLtz.fromInstant(before.withNano(999_999_000).toInstant(ZoneOffset.UTC)));
        try (BufferAllocator allocator = new RootAllocator()) {
            try (RowArrowWriter writer = RowArrowWriter.create(type, allocator)) {
                writer.write(row);
                try (VectorSchemaRoot root = writer.finish()) {
                    for (String column : List.of("ts0", "ts3", "ts6", "ts9", "ltz0", "ltz6")) {
                        // One unit before 1970-01-01T00:00, whatever the unit.
                        assertThat(((TimeStampVector) root.getVector(column)).get(0)).as(column).isEqualTo(-1L);
                    }
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void rowsThatDoNotFitTheTypeAreRejected() {
        RowType type = DataTypes.ROW(
                DataTypes.FIELD("id", DataTypes.INT()), DataTypes.FIELD("bin", DataTypes.BINARY(4)));
        try (BufferAllocator allocator = new RootAllocator()) {
            try (RowArrowWriter writer = RowArrowWriter.create(type, allocator)) {
                assertThatThrownBy(() -> writer.write(GenericRow.of(1)))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageStartingWith("Row has 1 fields but the row type has 2: ");
                assertThatThrownBy(() -> writer.write(GenericRow.of(1, new byte[] {1, 2})))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("Field 'bin' is BINARY(4) but the row holds 2 bytes there");
                assertThat(writer.rowCount()).isZero();
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void closeFreesAnUnfinishedBatch() {
        try (BufferAllocator allocator = new RootAllocator()) {
            RowArrowWriter writer = RowArrowWriter.create(ALL_TYPES, allocator);
            writer.write(fullRow());
            assertThat(allocator.getAllocatedMemory()).isPositive();
            writer.close();
            assertThat(allocator.getAllocatedMemory()).isZero();
            assertThatThrownBy(() -> writer.write(fullRow())).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(writer::finish).isInstanceOf(IllegalStateException.class);
            writer.close();
        }
    }

    // ---- rows and expectations, restated from AllTypesReadIT

    private static GenericRow fullRow() {
        int timeMillis = (int) (WHEN.toLocalTime().toNanoOfDay() / 1_000_000);
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(str("a"), 1L);
        map.put(str("b"), null);
        return GenericRow.of(true, (byte) -7, (short) 300, 123_456, 9_000_000_000L, 1.5f, 2.25,
                decimal("12345678.91", 10, 2), decimal("12345678901234567890.123456789012345678", 38, 18),
                str("abc"), str("héllo ✓"), new byte[] {1, 2, 3, 4}, new byte[] {9, 8, 7},
                (int) LocalDate.of(2024, 2, 29).toEpochDay(), timeMillis - timeMillis % 1000,
                timeMillis, timeMillis, timeMillis,
                TimestampNtz.fromLocalDateTime(WHEN.withNano(0)),
                TimestampNtz.fromLocalDateTime(WHEN.withNano(123_000_000)),
                TimestampNtz.fromLocalDateTime(WHEN.withNano(123_456_000)), TimestampNtz.fromLocalDateTime(WHEN),
                TimestampLtz.fromInstant(WHEN.withNano(123_000_000).toInstant(ZoneOffset.UTC)),
                TimestampLtz.fromInstant(WHEN.withNano(123_456_000).toInstant(ZoneOffset.UTC)),
                TimestampLtz.fromInstant(INSTANT),
                GenericArray.of(1, null, 3), new GenericMap(map),
                GenericRow.of(7, GenericRow.of(str("deep"))), 42);
    }

    /** Every column null but the NOT NULL one. */
    private static GenericRow nullRow(int notNull) {
        GenericRow row = new GenericRow(ALL_TYPES.getFieldCount());
        row.setField(ALL_TYPES.getFieldCount() - 1, notNull);
        return row;
    }

    private static void assertFullRow(VectorSchemaRoot root, int row) {
        assertThat(((BitVector) root.getVector("b")).get(row)).isEqualTo(1);
        assertThat(((TinyIntVector) root.getVector("ti")).get(row)).isEqualTo((byte) -7);
        assertThat(((SmallIntVector) root.getVector("si")).get(row)).isEqualTo((short) 300);
        assertThat(((IntVector) root.getVector("i")).get(row)).isEqualTo(123_456);
        assertThat(((BigIntVector) root.getVector("bi")).get(row)).isEqualTo(9_000_000_000L);
        assertThat(((Float4Vector) root.getVector("f")).get(row)).isEqualTo(1.5f);
        assertThat(((Float8Vector) root.getVector("d")).get(row)).isEqualTo(2.25);
        assertThat(((DecimalVector) root.getVector("dec_small")).getObject(row)).isEqualTo(new BigDecimal("12345678.91"));
        assertThat(((DecimalVector) root.getVector("dec_big")).getObject(row))
                .isEqualTo(new BigDecimal("12345678901234567890.123456789012345678"));
        assertThat(((VarCharVector) root.getVector("ch")).getObject(row).toString()).isEqualTo("abc");
        assertThat(((VarCharVector) root.getVector("s")).getObject(row).toString()).isEqualTo("héllo ✓");
        assertThat(((FixedSizeBinaryVector) root.getVector("bin")).get(row)).containsExactly(1, 2, 3, 4);
        assertThat(((VarBinaryVector) root.getVector("by")).get(row)).containsExactly(9, 8, 7);
        assertThat(((DateDayVector) root.getVector("dt")).get(row)).isEqualTo((int) LocalDate.of(2024, 2, 29).toEpochDay());
        LocalTime time = WHEN.toLocalTime();
        long millisOfDay = time.toNanoOfDay() / 1_000_000;
        assertThat(((TimeSecVector) root.getVector("t0")).get(row)).isEqualTo(time.toSecondOfDay());
        assertThat(((TimeMilliVector) root.getVector("t3")).get(row)).isEqualTo((int) millisOfDay);
        // Fluss keeps TIME to the millisecond whatever the precision.
        assertThat(((TimeMicroVector) root.getVector("t6")).get(row)).isEqualTo(millisOfDay * 1_000);
        assertThat(((TimeNanoVector) root.getVector("t9")).get(row)).isEqualTo(millisOfDay * 1_000_000);
        long epochSecond = WHEN.toEpochSecond(ZoneOffset.UTC);
        assertThat(((TimeStampSecVector) root.getVector("ts0")).get(row)).isEqualTo(epochSecond);
        assertThat(((TimeStampMilliVector) root.getVector("ts3")).getObject(row)).isEqualTo(WHEN.withNano(123_000_000));
        assertThat(((TimeStampMicroVector) root.getVector("ts6")).getObject(row)).isEqualTo(WHEN.withNano(123_456_000));
        assertThat(((TimeStampNanoVector) root.getVector("ts9")).getObject(row)).isEqualTo(WHEN);
        assertThat(((TimeStampMilliTZVector) root.getVector("ltz3")).get(row)).isEqualTo(epochSecond * 1_000 + 123);
        assertThat(((TimeStampMicroTZVector) root.getVector("ltz6")).get(row))
                .isEqualTo(epochSecond * 1_000_000 + 123_456);
        assertThat(((TimeStampNanoTZVector) root.getVector("ltz9")).get(row))
                .isEqualTo(epochSecond * 1_000_000_000 + 123_456_789);
        assertThat(((ListVector) root.getVector("arr")).getObject(row)).asString().isEqualTo("[1,null,3]");
        List<?> entries = ((MapVector) root.getVector("m")).getObject(row);
        assertThat(entries).hasSize(2);
        assertThat(entries.get(0).toString()).isEqualTo("{\"key\":\"a\",\"value\":1}");
        assertThat(entries.get(1).toString()).isEqualTo("{\"key\":\"b\"}");
        assertThat(((StructVector) root.getVector("r")).getObject(row).toString())
                .isEqualTo("{\"x\":7,\"inner\":{\"y\":\"deep\"}}");
        assertThat(((IntVector) root.getVector("nn")).get(row)).isEqualTo(42);
    }

    private static void assertNullRow(VectorSchemaRoot root, int row) {
        for (int column = 0; column < root.getFieldVectors().size() - 1; column++) {
            assertThat(root.getVector(column).isNull(row)).as("column %s of the null row", column).isTrue();
        }
        assertThat(((IntVector) root.getVector("nn")).get(row)).isEqualTo(-1);
    }

    private static InternalRow encode(RowEncoder encoder, GenericRow row) {
        encoder.startNewRow();
        for (int i = 0; i < row.getFieldCount(); i++) {
            encoder.encodeField(i, row.getField(i));
        }
        return encoder.finishRow();
    }

    private static List<Integer> ints(VectorSchemaRoot root, String column) {
        IntVector vector = (IntVector) root.getVector(column);
        Integer[] values = new Integer[root.getRowCount()];
        for (int i = 0; i < values.length; i++) {
            values[i] = vector.get(i);
        }
        return List.of(values);
    }

    private static BinaryString str(String value) {
        return BinaryString.fromString(value);
    }

    private static Decimal decimal(String value, int precision, int scale) {
        return Decimal.fromBigDecimal(new BigDecimal(value), precision, scale);
    }
}
