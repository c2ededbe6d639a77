package dev.riffle.core.types;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.Riffle;
import dev.riffle.core.read.LogBatches;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.math.BigDecimal;
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
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every Fluss type written by the official client and read back by Riffle: the Arrow schema Riffle
 * derives must match the buffers Fluss puts on the wire, value for value.
 */
@ExtendWith(LocalClusterExtension.class)
class AllTypesReadIT {
    private static final LocalDateTime WHEN = LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_456_789);
    private static final Instant INSTANT = WHEN.toInstant(ZoneOffset.UTC);

    @Test
    void everyTypeSurvivesTheWire(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("all_types");
        Schema schema = Schema.newBuilder()
                .column("b", DataTypes.BOOLEAN()).column("ti", DataTypes.TINYINT()).column("si", DataTypes.SMALLINT())
                .column("i", DataTypes.INT()).column("bi", DataTypes.BIGINT()).column("f", DataTypes.FLOAT())
                .column("d", DataTypes.DOUBLE()).column("dec_small", DataTypes.DECIMAL(10, 2))
                .column("dec_big", DataTypes.DECIMAL(38, 18)).column("ch", DataTypes.CHAR(5))
                .column("s", DataTypes.STRING()).column("bin", DataTypes.BINARY(4)).column("by", DataTypes.BYTES())
                .column("dt", DataTypes.DATE()).column("t0", DataTypes.TIME(0)).column("t3", DataTypes.TIME(3))
                .column("t6", DataTypes.TIME(6)).column("t9", DataTypes.TIME(9))
                .column("ts0", DataTypes.TIMESTAMP(0)).column("ts3", DataTypes.TIMESTAMP(3))
                .column("ts6", DataTypes.TIMESTAMP(6)).column("ts9", DataTypes.TIMESTAMP(9))
                .column("ltz3", DataTypes.TIMESTAMP_LTZ(3)).column("ltz6", DataTypes.TIMESTAMP_LTZ(6))
                .column("ltz9", DataTypes.TIMESTAMP_LTZ(9))
                .column("arr", DataTypes.ARRAY(DataTypes.INT()))
                .column("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT()))
                .column("r", DataTypes.ROW(DataTypes.FIELD("x", DataTypes.INT()),
                        DataTypes.FIELD("inner", DataTypes.ROW(DataTypes.FIELD("y", DataTypes.STRING())))))
                .column("nn", DataTypes.INT().copy(false))
                .build();
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(1).build(), false).get();
        }
        int timeMillis = (int) (WHEN.toLocalTime().toNanoOfDay() / 1_000_000);
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(BinaryString.fromString("a"), 1L);
        map.put(BinaryString.fromString("b"), null);
        GenericRow full = GenericRow.of(true, (byte) -7, (short) 300, 123_456, 9_000_000_000L, 1.5f, 2.25,
                Decimal.fromBigDecimal(new BigDecimal("12345678.91"), 10, 2),
                Decimal.fromBigDecimal(new BigDecimal("12345678901234567890.123456789012345678"), 38, 18),
                BinaryString.fromString("abc"), BinaryString.fromString("héllo ✓"), new byte[] {1, 2, 3, 4},
                new byte[] {9, 8, 7}, (int) LocalDate.of(2024, 2, 29).toEpochDay(), timeMillis - timeMillis % 1000,
                timeMillis, timeMillis, timeMillis,
                TimestampNtz.fromLocalDateTime(WHEN.withNano(0)), TimestampNtz.fromLocalDateTime(WHEN.withNano(123_000_000)),
                TimestampNtz.fromLocalDateTime(WHEN.withNano(123_456_000)), TimestampNtz.fromLocalDateTime(WHEN),
                TimestampLtz.fromInstant(WHEN.withNano(123_000_000).toInstant(ZoneOffset.UTC)), TimestampLtz.fromInstant(WHEN.withNano(123_456_000).toInstant(ZoneOffset.UTC)),
                TimestampLtz.fromInstant(INSTANT),
                GenericArray.of(1, null, 3), new GenericMap(map),
                GenericRow.of(7, GenericRow.of(BinaryString.fromString("deep"))), 42);
        GenericRow nulls = new GenericRow(schema.getRowType().getFieldCount());
        nulls.setField(schema.getRowType().getFieldCount() - 1, -1);
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            writer.append(full);
            writer.append(nulls);
            writer.flush();
        }

        try (BufferAllocator allocator = new RootAllocator()) {
            try (Riffle riffle = Riffle.using(connection, allocator);
                    LogBatches batches = riffle.table(path).read().createLogReader().collectAll()) {
                assertThat(batches.rowCount()).isEqualTo(2);
                assertThat(batches.batches()).hasSize(1);
                LogBatch batch = batches.batches().get(0);
                VectorSchemaRoot root = batch.root();
                assertThat(ArrowTypeMapping.toRowType(root.getSchema())).isEqualTo(schema.getRowType());
                assertFullRow(root, 0);
                for (int column = 0; column < root.getFieldVectors().size() - 1; column++) {
                    assertThat(root.getVector(column).isNull(1)).as("column %s of the null row", column).isTrue();
                }
                assertThat(((IntVector) root.getVector("nn")).get(1)).isEqualTo(-1);
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
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
}
