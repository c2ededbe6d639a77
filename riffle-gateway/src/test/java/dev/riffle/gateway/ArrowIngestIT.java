package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.Riffle;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Arrow bodies whose columns are in the table's own Arrow types go to Fluss's writer as they are:
 * every such type, nulls, columns in another order than the table's, several batches; read back
 * through riffle-core, each value is the one sent; a NOT NULL column's null in a later batch
 * writes nothing of the request. Dictionary-encoded columns and batches sliced out of larger ones
 * (which take the value-by-value path) are written as the values they stand for.
 */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class ArrowIngestIT {
    private static final String COLUMNS = "["
            + "{\"name\": \"id\", \"type\": \"INT NOT NULL\"}, {\"name\": \"b\", \"type\": \"BOOLEAN\"},"
            + "{\"name\": \"t\", \"type\": \"TINYINT\"}, {\"name\": \"s\", \"type\": \"SMALLINT\"},"
            + "{\"name\": \"l\", \"type\": \"BIGINT\"}, {\"name\": \"f\", \"type\": \"FLOAT\"},"
            + "{\"name\": \"d\", \"type\": \"DOUBLE\"}, {\"name\": \"str\", \"type\": \"STRING\"},"
            + "{\"name\": \"bin\", \"type\": \"BYTES\"}, {\"name\": \"day\", \"type\": \"DATE\"},"
            + "{\"name\": \"clock\", \"type\": \"TIME(3)\"}, {\"name\": \"ts3\", \"type\": \"TIMESTAMP(3)\"},"
            + "{\"name\": \"ts6\", \"type\": \"TIMESTAMP(6)\"}, {\"name\": \"ts9\", \"type\": \"TIMESTAMP(9)\"},"
            + "{\"name\": \"ltz\", \"type\": \"TIMESTAMP_LTZ(6)\"}]";
    private static final int BATCH = 400;

    private Api api;

    @AfterEach
    void noArrowMemoryHeld() {
        if (api != null) {
            api.assertNoArrowMemoryHeld();
        }
    }

    @Test
    void batchesInTheTablesOwnTypesAreWrittenAsSentAndAFailingBatchWritesNothing(Api api, Connection connection,
            TestNames names) throws Exception {
        this.api = api;
        TablePath path = createTable(api, names.table("arrow_direct"), COLUMNS, ", \"buckets\": 1");
        List<List<Object>> sent = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator(); Riffle riffle = Riffle.using(connection, allocator)) {
            RowType rowType = riffle.table(path).info().getRowType();
            // The table's Arrow types, in reverse column order: the gateway finds columns by name.
            List<Field> fields = new ArrayList<>(ArrowTypeMapping.toArrowSchema(rowType).getFields());
            java.util.Collections.reverse(fields);
            Schema schema = new Schema(fields);
            byte[] body = stream(schema, allocator, 3, -1, sent);
            Api.Response written = api.post(tableUrl(path) + "/rows", Api.ARROW, body);
            assertThat(written.status()).as(written.text()).isEqualTo(200);
            assertThat(written.json().get("written").asInt()).isEqualTo(3 * BATCH);
            assertThat(readBack(riffle, path, schema)).isEqualTo(sent);

            // A null id in the third batch: the first two are not written either.
            byte[] bad = stream(schema, allocator, 3, 2, new ArrayList<>());
            Api.Response refused = api.post(tableUrl(path) + "/rows", Api.ARROW, bad);
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.errorMessage()).contains("Row " + (2 * BATCH + 7)).contains("'id'").contains("NOT NULL");
            assertThat(readBack(riffle, path, schema)).isEqualTo(sent);
        }
    }

    @Test
    void dictionaryEncodedAndSlicedBatchesAreWrittenAsTheirValues(Api api, Connection connection, TestNames names)
            throws Exception {
        this.api = api;
        TablePath path = createTable(api, names.table("arrow_shapes"), "[{\"name\": \"id\", \"type\": \"INT NOT NULL\"},"
                + " {\"name\": \"region\", \"type\": \"STRING\"}, {\"name\": \"amount\", \"type\": \"BIGINT\"}]",
                ", \"buckets\": 1");
        String[] regions = {"eu", "us", "apac"};
        List<List<Object>> sent = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator(); Riffle riffle = Riffle.using(connection, allocator)) {
            // A dictionary-encoded region (Int32 indices into three strings), every tenth null.
            DictionaryEncoding encoding = new DictionaryEncoding(1L, false, new ArrowType.Int(32, true));
            ByteArrayOutputStream dictionaryBody = new ByteArrayOutputStream();
            try (VarCharVector dictionary = new VarCharVector("regions", allocator)) {
                dictionary.allocateNew();
                for (int i = 0; i < regions.length; i++) {
                    dictionary.setSafe(i, regions[i].getBytes(StandardCharsets.UTF_8));
                }
                dictionary.setValueCount(regions.length);
                DictionaryProvider.MapDictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider();
                provider.put(new Dictionary(dictionary, encoding));
                Schema schema = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(32, true)),
                        new Field("region", new FieldType(true, new ArrowType.Int(32, true), encoding), null),
                        Field.nullable("amount", new ArrowType.Int(64, true))));
                try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                        ArrowStreamWriter writer = new ArrowStreamWriter(root, provider,
                                Channels.newChannel(dictionaryBody))) {
                    writer.start();
                    root.allocateNew();
                    for (int i = 0; i < 300; i++) {
                        ((IntVector) root.getVector("id")).setSafe(i, i);
                        if (i % 10 == 0) {
                            root.getVector("region").setNull(i);
                        } else {
                            ((IntVector) root.getVector("region")).setSafe(i, i % 3);
                        }
                        ((BigIntVector) root.getVector("amount")).setSafe(i, i * 3L);
                        sent.add(List.of(String.valueOf(i), i % 10 == 0 ? "null" : regions[i % 3], String.valueOf(i * 3L)));
                    }
                    root.setRowCount(300);
                    writer.writeBatch();
                    writer.end();
                }
            }
            Api.Response encoded = api.post(tableUrl(path) + "/rows", Api.ARROW, dictionaryBody.toByteArray());
            assertThat(encoded.status()).as(encoded.text()).isEqualTo(200);
            assertThat(encoded.json().get("written").asInt()).isEqualTo(300);

            // A slice (rows 250 to 549) of a 1,000-row batch: offsets into shared buffers, a validity bitmap
            // that starts mid-byte.
            Schema plain = ArrowTypeMapping.toArrowSchema(riffle.table(path).info().getRowType());
            ByteArrayOutputStream slicedBody = new ByteArrayOutputStream();
            try (VectorSchemaRoot whole = VectorSchemaRoot.create(plain, allocator)) {
                whole.allocateNew();
                for (int i = 0; i < 1000; i++) {
                    ((IntVector) whole.getVector("id")).setSafe(i, 1000 + i);
                    if (i % 7 == 0) {
                        whole.getVector("region").setNull(i);
                    } else {
                        ((VarCharVector) whole.getVector("region")).setSafe(i,
                                ("r" + i).getBytes(StandardCharsets.UTF_8));
                    }
                    ((BigIntVector) whole.getVector("amount")).setSafe(i, -i);
                }
                whole.setRowCount(1000);
                try (VectorSchemaRoot slice = whole.slice(250, 300);
                        ArrowStreamWriter writer = new ArrowStreamWriter(slice, null, Channels.newChannel(slicedBody))) {
                    writer.start();
                    writer.writeBatch();
                    writer.end();
                }
                for (int i = 250; i < 550; i++) {
                    sent.add(List.of(String.valueOf(1000 + i), i % 7 == 0 ? "null" : "r" + i, String.valueOf(-i)));
                }
            }
            Api.Response sliced = api.post(tableUrl(path) + "/rows", Api.ARROW, slicedBody.toByteArray());
            assertThat(sliced.status()).as(sliced.text()).isEqualTo(200);
            assertThat(sliced.json().get("written").asInt()).isEqualTo(300);

            assertThat(readBack(riffle, path, plain)).isEqualTo(sent);
        }
    }

    /** An Arrow stream of {@code batches} random batches; a null id at row 7 of batch {@code nullIdIn}. */
    private static byte[] stream(Schema schema, BufferAllocator allocator, int batches, int nullIdIn,
            List<List<Object>> sent) throws Exception {
        Random random = new Random(7);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            for (int b = 0; b < batches; b++) {
                root.allocateNew();
                for (int i = 0; i < BATCH; i++) {
                    int id = b * BATCH + i;
                    for (FieldVector vector : root.getFieldVectors()) {
                        boolean isId = vector.getName().equals("id");
                        if (isId ? b == nullIdIn && i == 7 : random.nextInt(6) == 0) {
                            vector.setNull(i);
                        } else {
                            set(vector, i, isId ? id : random.nextInt(), random);
                        }
                    }
                }
                root.setRowCount(BATCH);
                for (int i = 0; i < BATCH; i++) {
                    List<Object> row = new ArrayList<>();
                    for (FieldVector vector : root.getFieldVectors()) {
                        row.add(render(vector.getObject(i)));
                    }
                    sent.add(row);
                }
                writer.writeBatch();
            }
            writer.end();
        }
        return out.toByteArray();
    }

    private static void set(FieldVector vector, int i, int value, Random random) {
        long millis = 1_700_000_000_000L + random.nextInt(1_000_000_000);
        if (vector instanceof IntVector v) {
            v.setSafe(i, value);
        } else if (vector instanceof BitVector v) {
            v.setSafe(i, value & 1);
        } else if (vector instanceof TinyIntVector v) {
            v.setSafe(i, (byte) value);
        } else if (vector instanceof SmallIntVector v) {
            v.setSafe(i, (short) value);
        } else if (vector instanceof BigIntVector v) {
            v.setSafe(i, random.nextLong());
        } else if (vector instanceof Float4Vector v) {
            v.setSafe(i, random.nextFloat() * 1000);
        } else if (vector instanceof Float8Vector v) {
            v.setSafe(i, random.nextGaussian());
        } else if (vector instanceof VarCharVector v) {
            v.setSafe(i, ("s" + value + "-ü").getBytes(StandardCharsets.UTF_8));
        } else if (vector instanceof VarBinaryVector v) {
            v.setSafe(i, new byte[] {(byte) value, 0, (byte) (value >> 8)});
        } else if (vector instanceof DateDayVector v) {
            v.setSafe(i, 19_000 + random.nextInt(1_000));
        } else if (vector instanceof TimeMilliVector v) {
            v.setSafe(i, random.nextInt(86_400_000));
        } else if (vector instanceof TimeStampVector v) {
            // the vector's unit: milli, micro or nano since the epoch, scaled from a millisecond instant
            long perMilli = switch (((org.apache.arrow.vector.types.pojo.ArrowType.Timestamp) v.getField().getType())
                    .getUnit()) {
                case MILLISECOND -> 1;
                case MICROSECOND -> 1_000;
                case NANOSECOND -> 1_000_000;
                default -> throw new IllegalStateException("seconds");
            };
            v.setSafe(i, millis * perMilli + (perMilli > 1 ? random.nextInt((int) perMilli) : 0));
        } else {
            throw new IllegalStateException("No value for " + vector.getField());
        }
    }

    private static List<List<Object>> readBack(Riffle riffle, TablePath path, Schema order) {
        List<List<Object>> rows = new ArrayList<>();
        try (BoundedLogReader log = riffle.table(path).read().log().createLogReader()) {
            while (log.hasNext()) {
                try (LogBatch batch = log.next()) {
                    VectorSchemaRoot root = batch.root();
                    for (int i = 0; i < root.getRowCount(); i++) {
                        List<Object> row = new ArrayList<>();
                        for (Field field : order.getFields()) {
                            row.add(render(root.getVector(field.getName()).getObject(i)));
                        }
                        rows.add(row);
                    }
                }
            }
        }
        return rows;
    }

    private static Object render(Object value) {
        return value instanceof byte[] bytes ? Arrays.toString(bytes) : value == null ? "null" : value.toString();
    }
}
