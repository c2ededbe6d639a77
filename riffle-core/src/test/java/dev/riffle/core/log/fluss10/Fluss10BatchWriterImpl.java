package dev.riffle.core.log.fluss10;

import dev.riffle.core.log.Fluss10BatchWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.fluss.client.write.ArrowLogWriteBatch;
import org.apache.fluss.client.write.WriteRecord;
import org.apache.fluss.config.StatisticsConfigUtils;
import org.apache.fluss.memory.MemorySegment;
import org.apache.fluss.memory.UnmanagedPagedOutputView;
import org.apache.fluss.metadata.PhysicalTablePath;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.SchemaGetter;
import org.apache.fluss.metadata.SchemaInfo;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.DefaultLogRecordBatch;
import org.apache.fluss.record.FileLogProjection;
import org.apache.fluss.record.LogRecordBatchFormat;
import org.apache.fluss.record.LogRecordBatchStatisticsCollector;
import org.apache.fluss.record.MemoryLogRecordsArrowBuilder;
import org.apache.fluss.record.ProjectionPushdownCache;
import org.apache.fluss.record.bytesview.BytesView;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.row.arrow.ArrowWriter;
import org.apache.fluss.row.arrow.ArrowWriterPool;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.shaded.netty4.io.netty.buffer.ByteBuf;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.json.DataTypeJsonSerde;
import org.apache.fluss.utils.json.JsonSerdeUtils;

/**
 * Compiled against fluss-client 1.0.0 at test time and loaded beside it (see {@code Fluss10}), so
 * this file is excluded from the module's test compilation, which sees 0.9.1. Every batch comes
 * out of a Fluss 1.0 class; this class only feeds them rows and copies the bytes out.
 */
public final class Fluss10BatchWriterImpl implements Fluss10BatchWriter {
    private static final TablePath TABLE = TablePath.of("riffle", "fluss10_batches");
    private static final long TABLE_ID = 42L;
    private static final int SCHEMA_ID = 1;
    private static final int WRITE_LIMIT = 16 << 20;
    /** Small pages, so batches span several segments as they do in the client's buffer pool. */
    private static final int PAGE_SIZE = 64 << 10;
    private static final long WRITER_ID = 7L;
    private static final int BATCH_SEQUENCE = 3;

    private final BufferAllocator allocator = new RootAllocator(Long.MAX_VALUE);

    @Override
    public String flussLocation() {
        return LogRecordBatchFormat.class.getProtectionDomain().getCodeSource().getLocation().toString();
    }

    @Override
    public Object staticField(String className, String fieldName) {
        try {
            Field field = Class.forName(className, true, getClass().getClassLoader()).getDeclaredField(fieldName);
            field.setAccessible(true);
            return field.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("No static field " + className + "." + fieldName + " in Fluss 1.0", e);
        }
    }

    @Override
    public Written write(Spec spec) {
        TableInfo table = table(spec);
        RowType rowType = table.getRowType();
        try (ArrowWriterPool pool = new ArrowWriterPool(allocator)) {
            ArrowWriter arrowWriter = pool.getOrCreateWriter(TABLE_ID, SCHEMA_ID, WRITE_LIMIT, rowType,
                    table.getTableConfig().getArrowCompressionInfo());
            LogRecordBatchStatisticsCollector statistics = table.isStatisticsEnabled()
                    ? new LogRecordBatchStatisticsCollector(rowType, table.getStatsIndexMapping())
                    : null;
            UnmanagedPagedOutputView output = new UnmanagedPagedOutputView(PAGE_SIZE);
            byte[] bytes;
            switch (spec.builder()) {
                case CLIENT_LOG_TABLE:
                    bytes = clientLogTableBatch(spec, table, arrowWriter, output, statistics);
                    break;
                case SERVER_CHANGELOG:
                    require(!spec.appendOnly() && statistics == null,
                            "the 1.0 server writes changelogs with change types and without statistics");
                    bytes = built(spec, MemoryLogRecordsArrowBuilder.builder(SCHEMA_ID, arrowWriter, output, false, null));
                    break;
                case EXPLICIT_MAGIC:
                    require(!spec.appendOnly() || statistics == null,
                            "1.0's explicit-magic builders write statistics only for changelog batches");
                    bytes = built(spec, spec.appendOnly()
                            ? MemoryLogRecordsArrowBuilder.builder(0L, spec.magic(), SCHEMA_ID, arrowWriter, output, true)
                            : MemoryLogRecordsArrowBuilder.builder(0L, spec.magic(), SCHEMA_ID, arrowWriter, output,
                                    statistics));
                    break;
                default:
                    throw new IllegalArgumentException("Unknown builder " + spec.builder());
            }
            return stampedAsServerAppends(bytes, spec);
        } catch (Exception e) {
            throw new IllegalStateException("Fluss 1.0 could not write " + spec.builder() + ": " + e, e);
        }
    }

    @Override
    public byte[] projectAsServer(byte[] batches, Spec spec, int[] projectedFields) {
        TableInfo table = table(spec);
        Schema schema = table.getSchema();
        SchemaGetter schemas = new SchemaGetter() {
            @Override
            public Schema getSchema(int schemaId) {
                return schema;
            }

            @Override
            public CompletableFuture<SchemaInfo> getSchemaInfoAsync(int schemaId) {
                return CompletableFuture.completedFuture(new SchemaInfo(schema, SCHEMA_ID));
            }

            @Override
            public SchemaInfo getLatestSchemaInfo() {
                return new SchemaInfo(schema, SCHEMA_ID);
            }

            @Override
            public void release() {}
        };
        try {
            Path file = Files.createTempFile("fluss10-log-", ".log");
            try {
                Files.write(file, batches);
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                    FileLogProjection projection = new FileLogProjection(new ProjectionPushdownCache());
                    projection.setCurrentProjection(TABLE_ID, schemas, table.getTableConfig().getArrowCompressionInfo(),
                            projectedFields);
                    return copy(projection.project(channel, 0, batches.length, Integer.MAX_VALUE).getBytesView());
                }
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The table as a 1.0 client knows it: its statistics and compression settings drive the writer. */
    private static TableInfo table(Spec spec) {
        RowType rowType = (RowType) JsonSerdeUtils.readValue(spec.rowTypeJson(), DataTypeJsonSerde.INSTANCE);
        TableDescriptor.Builder descriptor = TableDescriptor.builder()
                .schema(Schema.newBuilder().fromRowType(rowType).build())
                .distributedBy(1)
                .property("table.log.arrow.compression.type", spec.compression());
        spec.statisticsColumns().ifPresent(columns -> descriptor.property("table.statistics.columns", columns));
        TableDescriptor built = descriptor.build();
        // What the 1.0 coordinator checks before it creates such a table.
        StatisticsConfigUtils.validateStatisticsConfig(built);
        return TableInfo.of(TABLE, TABLE_ID, SCHEMA_ID, built, null, 0L, 0L);
    }

    private static byte[] clientLogTableBatch(Spec spec, TableInfo table, ArrowWriter arrowWriter,
            UnmanagedPagedOutputView output, LogRecordBatchStatisticsCollector statistics) throws Exception {
        require(spec.appendOnly(), "log tables have no change types");
        PhysicalTablePath path = PhysicalTablePath.of(TABLE);
        ArrowLogWriteBatch batch = new ArrowLogWriteBatch(TABLE_ID, 0, 1, path, SCHEMA_ID, arrowWriter, output, false,
                System.currentTimeMillis(), statistics);
        for (List<Object> row : spec.rows()) {
            WriteRecord record = WriteRecord.forArrowAppend(table, path, row(row, table.getRowType()), null);
            require(batch.tryAppend(record, (bucket, offset, error) -> {}), "the batch filled up");
        }
        // The idempotent writer's id and sequence, as the client's sender sets them before sending.
        batch.setWriterState(WRITER_ID, BATCH_SEQUENCE);
        batch.close();
        return copy(batch.build());
    }

    private static byte[] built(Spec spec, MemoryLogRecordsArrowBuilder builder) throws Exception {
        RowType rowType = (RowType) JsonSerdeUtils.readValue(spec.rowTypeJson(), DataTypeJsonSerde.INSTANCE);
        for (int i = 0; i < spec.rows().size(); i++) {
            ChangeType changeType = spec.appendOnly() ? ChangeType.APPEND_ONLY : changeType(spec.changeTypes().get(i));
            builder.append(changeType, row(spec.rows().get(i), rowType));
        }
        builder.setWriterState(WRITER_ID, BATCH_SEQUENCE);
        builder.close();
        return copy(builder.build());
    }

    /** What a 1.0 tablet server does to a batch it appends: offsets, time and epoch, outside the CRC. */
    private static Written stampedAsServerAppends(byte[] bytes, Spec spec) {
        DefaultLogRecordBatch batch = new DefaultLogRecordBatch();
        batch.pointTo(MemorySegment.wrap(bytes), 0);
        batch.setBaseLogOffset(spec.baseOffset());
        batch.setCommitTimestamp(spec.commitTimestamp());
        if (batch.magic() >= 2) {
            batch.setLeaderEpoch(spec.leaderEpoch());
        }
        batch.ensureValid();
        return new Written(bytes, batch.magic(), batch.baseLogOffset(), batch.lastLogOffset(), batch.commitTimestamp(),
                batch.schemaId(), batch.getRecordCount(), batch.getStatisticsLength(), batch.leaderEpoch(),
                batch.writerId(), batch.batchSequence(), batch.checksum());
    }

    private static ChangeType changeType(String shortString) {
        for (ChangeType type : ChangeType.values()) {
            if (type.shortString().equals(shortString)) {
                return type;
            }
        }
        throw new IllegalArgumentException("Unknown change type " + shortString);
    }

    private static InternalRow row(List<Object> values, RowType rowType) {
        require(values.size() == rowType.getFieldCount(), values.size() + " values for " + rowType);
        GenericRow row = new GenericRow(values.size());
        for (int i = 0; i < values.size(); i++) {
            row.setField(i, internal(values.get(i), rowType.getTypeAt(i)));
        }
        return row;
    }

    @SuppressWarnings("unchecked")
    private static Object internal(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case FLOAT:
            case DOUBLE:
            case BINARY:
            case BYTES:
                return value;
            case CHAR:
            case STRING:
                return BinaryString.fromString((String) value);
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return Decimal.fromBigDecimal((BigDecimal) value, decimal.getPrecision(), decimal.getScale());
            case DATE:
                return (int) ((LocalDate) value).toEpochDay();
            case TIME_WITHOUT_TIME_ZONE:
                return (int) (((LocalTime) value).toNanoOfDay() / 1_000_000); // Fluss keeps TIME in milliseconds
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return TimestampNtz.fromLocalDateTime((LocalDateTime) value);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TimestampLtz.fromInstant((Instant) value);
            case ARRAY:
                DataType element = ((ArrayType) type).getElementType();
                return new GenericArray(((List<Object>) value).stream().map(v -> internal(v, element)).toArray());
            case MAP:
                MapType map = (MapType) type;
                Map<Object, Object> entries = new LinkedHashMap<>();
                ((Map<Object, Object>) value).forEach((k, v) ->
                        entries.put(internal(k, map.getKeyType()), internal(v, map.getValueType())));
                return new GenericMap(entries);
            case ROW:
                return row((List<Object>) value, (RowType) type);
            default:
                throw new IllegalArgumentException("No test value conversion for " + type);
        }
    }

    private static byte[] copy(BytesView view) {
        ByteBuf buf = view.getByteBuf();
        byte[] bytes = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), bytes);
        return bytes;
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
