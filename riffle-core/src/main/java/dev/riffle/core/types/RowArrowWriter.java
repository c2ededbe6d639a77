package dev.riffle.core.types;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.memory.MemorySegment;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.DataGetters;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.InternalArray;
import org.apache.fluss.row.InternalMap;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.BinaryType;
import org.apache.fluss.types.CharType;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.types.TimestampType;

/**
 * Writes Fluss {@link InternalRow}s (lake reads, lookups, anything the Fluss client hands back as rows) into Arrow
 * vectors of the schema {@link ArrowTypeMapping#toArrowSchema}, with the same value encodings Fluss uses in its own
 * Arrow log batches, so a table reads the same whether its rows arrived as log batches or as rows.
 *
 * <p>The writer fills one {@link VectorSchemaRoot} at a time. {@link #finish()} hands that root to the caller, who
 * then owns and closes it, and the next {@link #write} starts a fresh one; that is how a stream of rows is cut into
 * batches. {@link #close()} frees only a root that was never handed out.
 *
 * <pre>{@code
 * try (RowArrowWriter writer = RowArrowWriter.create(tableInfo.getRowType(), allocator)) {
 *     for (InternalRow row : rows) {
 *         writer.write(row);
 *         if (writer.rowCount() == 8192) {
 *             try (VectorSchemaRoot batch = writer.finish()) {
 *                 consume(batch);
 *             }
 *         }
 *     }
 *     try (VectorSchemaRoot last = writer.finish()) {   // may hold zero rows
 *         consume(last);
 *     }
 * }
 * }</pre>
 *
 * <p>A row with a null in a {@code NOT NULL} field is rejected, naming the field; a row that fails part-way is not
 * counted, and the next row written takes its place. Not thread-safe.
 */
public final class RowArrowWriter implements AutoCloseable {
    /**
     * Rows a fresh root has room for before its first reallocation. Batches run from one looked-up row to many
     * thousands of lake rows, so start small and let {@code setSafe} double the buffers as needed.
     */
    private static final int INITIAL_ROW_CAPACITY = 1024;

    private final RowType rowType;
    private final Schema schema;
    private final BufferAllocator allocator;
    private final int initialRows;

    /** The batch being filled; null until the first write after {@link #finish()} so no root is made for nothing. */
    private VectorSchemaRoot root;
    /** One writer per column, bound to the vectors of {@link #root}. */
    private FieldWriter[] columns;
    private int rowCount;
    private boolean closed;

    private RowArrowWriter(RowType rowType, BufferAllocator allocator, int initialRows) {
        this.rowType = rowType;
        this.schema = ArrowTypeMapping.toArrowSchema(rowType);
        this.allocator = allocator;
        this.initialRows = initialRows;
    }

    /**
     * A writer for rows of {@code rowType}, allocating from {@code allocator}.
     *
     * @throws IllegalArgumentException if the row type holds a type Riffle cannot map to Arrow
     */
    public static RowArrowWriter create(RowType rowType, BufferAllocator allocator) {
        return create(rowType, allocator, INITIAL_ROW_CAPACITY);
    }

    /**
     * A writer whose batches start with room for {@code expectedRows} rows (at most the default
     * {@value #INITIAL_ROW_CAPACITY}): a caller that knows it writes a handful of rows, such as the
     * rows a key lookup found, does not allocate and clear buffers for a thousand.
     */
    public static RowArrowWriter create(RowType rowType, BufferAllocator allocator, int expectedRows) {
        requireNonNull(rowType, "rowType is null");
        requireNonNull(allocator, "allocator is null");
        if (expectedRows < 0) {
            throw new IllegalArgumentException("expectedRows must not be negative, got " + expectedRows);
        }
        return new RowArrowWriter(rowType, allocator, Math.max(1, Math.min(expectedRows, INITIAL_ROW_CAPACITY)));
    }

    /** Appends one row to the current batch. */
    public void write(InternalRow row) {
        requireNonNull(row, "row is null");
        checkOpen();
        int fieldCount = schema.getFields().size();
        // Only too few fields is an error: a wider row (a lake row with system columns appended, say) is written
        // by its leading fields.
        if (row.getFieldCount() < fieldCount) {
            throw new IllegalArgumentException(String.format(
                    "Row has %d fields but the row type has %d: %s", row.getFieldCount(), fieldCount, rowType));
        }
        if (root == null) {
            startBatch();
        }
        int index = rowCount;
        for (int column = 0; column < columns.length; column++) {
            columns[column].write(index, row, column);
        }
        // Counted only once every column is written, so a row that throws part-way is overwritten by the next.
        rowCount = index + 1;
    }

    /** Rows written since the last {@link #finish()}. */
    public int rowCount() {
        return rowCount;
    }

    /**
     * The rows written since the last call, as a root the caller now owns and must close; the writer starts a fresh
     * root for the rows that follow. With no rows written, the root is empty.
     */
    public VectorSchemaRoot finish() {
        checkOpen();
        if (root == null) {
            startBatch();
        }
        VectorSchemaRoot batch = root;
        // Also sets every vector's value count, which fixes the offsets of variable-width and nested vectors.
        batch.setRowCount(rowCount);
        root = null;
        columns = null;
        rowCount = 0;
        return batch;
    }

    /** Frees the rows written since the last {@link #finish()}; roots already handed out stay the caller's. */
    @Override
    public void close() {
        closed = true;
        if (root != null) {
            root.close();
            root = null;
            columns = null;
            rowCount = 0;
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("RowArrowWriter is closed; create a new one to write more rows");
        }
    }

    private void startBatch() {
        VectorSchemaRoot fresh = VectorSchemaRoot.create(schema, allocator);
        try {
            for (FieldVector vector : fresh.getFieldVectors()) {
                vector.setInitialCapacity(initialRows);
            }
            fresh.allocateNew();
            List<DataField> fields = rowType.getFields();
            FieldWriter[] writers = new FieldWriter[fields.size()];
            for (int i = 0; i < writers.length; i++) {
                DataField field = fields.get(i);
                writers[i] = writerFor(field.getName(), field.getType(), fresh.getVector(i));
            }
            root = fresh;
            columns = writers;
        } catch (RuntimeException | Error e) {
            fresh.close();
            throw e;
        }
    }

    // ---- one writer per column, chosen once by type

    /**
     * The writer for one Fluss type over its vector. Chosen here once per batch, never per row; nested types recurse,
     * so an array element or struct field uses the same writers as a top-level column.
     */
    private static FieldWriter writerFor(String path, DataType type, FieldVector vector) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new BooleanWriter(path, type, (BitVector) vector);
            case TINYINT:
                return new TinyIntWriter(path, type, (TinyIntVector) vector);
            case SMALLINT:
                return new SmallIntWriter(path, type, (SmallIntVector) vector);
            case INTEGER:
                return new IntWriter(path, type, (IntVector) vector);
            case BIGINT:
                return new BigIntWriter(path, type, (BigIntVector) vector);
            case FLOAT:
                return new FloatWriter(path, type, (Float4Vector) vector);
            case DOUBLE:
                return new DoubleWriter(path, type, (Float8Vector) vector);
            case CHAR:
                return new CharWriter(path, (CharType) type, (VarCharVector) vector);
            case STRING:
                return new StringWriter(path, type, (VarCharVector) vector);
            case BINARY:
                return new FixedBinaryWriter(path, type, (FixedSizeBinaryVector) vector);
            case BYTES:
                return new BytesWriter(path, type, (VarBinaryVector) vector);
            case DECIMAL:
                return new DecimalWriter(path, (DecimalType) type, (DecimalVector) vector);
            case DATE:
                return new DateWriter(path, type, (DateDayVector) vector);
            case TIME_WITHOUT_TIME_ZONE:
                return timeWriter(path, type, vector);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                int ntzPrecision = ((TimestampType) type).getPrecision();
                return new TimestampNtzWriter(path, type, (TimeStampVector) vector, ntzPrecision);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                int ltzPrecision = ((LocalZonedTimestampType) type).getPrecision();
                return new TimestampLtzWriter(path, type, (TimeStampVector) vector, ltzPrecision);
            case ARRAY:
                ListVector list = (ListVector) vector;
                String elementPath = path + ".element";
                DataType elementType = ((ArrayType) type).getElementType();
                return new ArrayWriter(path, type, list, writerFor(elementPath, elementType, list.getDataVector()));
            case MAP:
                return mapWriter(path, (MapType) type, (MapVector) vector);
            case ROW:
                return rowWriter(path, (RowType) type, (StructVector) vector);
            default:
                // toArrowSchema already rejects these; this guards a type added there but not here.
                throw new IllegalArgumentException(String.format(
                        "Field '%s' has Fluss type %s, which RowArrowWriter cannot write", path, type));
        }
    }

    /** The unit comes from the Arrow field, so it follows ArrowTypeMapping's precision rules without restating them. */
    private static FieldWriter timeWriter(String path, DataType type, FieldVector vector) {
        TimeUnit unit = ((ArrowType.Time) vector.getField().getType()).getUnit();
        switch (unit) {
            case SECOND:
                return new TimeSecWriter(path, type, (TimeSecVector) vector);
            case MILLISECOND:
                return new TimeMilliWriter(path, type, (TimeMilliVector) vector);
            case MICROSECOND:
                return new TimeMicroWriter(path, type, (TimeMicroVector) vector);
            default:
                return new TimeNanoWriter(path, type, (TimeNanoVector) vector);
        }
    }

    private static FieldWriter mapWriter(String path, MapType type, MapVector vector) {
        StructVector entries = (StructVector) vector.getDataVector();
        List<FieldVector> keyAndValue = entries.getChildrenFromFields();
        String entriesPath = path + ".entries";
        FieldWriter key = writerFor(entriesPath + ".key", type.getKeyType(), keyAndValue.get(0));
        FieldWriter value = writerFor(entriesPath + ".value", type.getValueType(), keyAndValue.get(1));
        return new MapWriter(path, type, vector, entries, key, value);
    }

    private static FieldWriter rowWriter(String path, RowType type, StructVector vector) {
        List<DataField> fields = type.getFields();
        List<FieldVector> children = vector.getChildrenFromFields();
        FieldWriter[] writers = new FieldWriter[fields.size()];
        for (int i = 0; i < writers.length; i++) {
            DataField field = fields.get(i);
            writers[i] = writerFor(path + "." + field.getName(), field.getType(), children.get(i));
        }
        return new RowWriter(path, type, vector, writers);
    }

    /**
     * Writes the value at one position of a Fluss source into one slot of an Arrow vector. The source is a
     * {@link DataGetters}, which both {@link InternalRow} (a column) and {@link InternalArray} (an array element, a
     * map key or value) implement, so every type has one writer whatever it is nested in.
     */
    private abstract static class FieldWriter {
        /** Dotted from the column, for errors: {@code r.inner.y}, {@code arr.element}, {@code m.entries.value}. */
        final String path;
        final DataType type;
        private final FieldVector vector;

        FieldWriter(String path, DataType type, FieldVector vector) {
            this.path = path;
            this.type = type;
            this.vector = vector;
        }

        final void write(int index, DataGetters source, int pos) {
            if (!source.isNullAt(pos)) {
                writeValue(index, source, pos);
            } else if (type.isNullable()) {
                setNull(index);
            } else {
                // Arrow consumers may trust a non-nullable field and skip its validity bits, so refuse to write one.
                throw new IllegalArgumentException(String.format(
                        "Field '%s' is %s but the row holds null there", path, type));
            }
        }

        /** Writes the non-null value at {@code pos}, growing the vector as needed. */
        abstract void writeValue(int index, DataGetters source, int pos);

        void setNull(int index) {
            vector.setNull(index);
        }
    }

    private static final class BooleanWriter extends FieldWriter {
        private final BitVector vector;

        BooleanWriter(String path, DataType type, BitVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getBoolean(pos) ? 1 : 0);
        }
    }

    private static final class TinyIntWriter extends FieldWriter {
        private final TinyIntVector vector;

        TinyIntWriter(String path, DataType type, TinyIntVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getByte(pos));
        }
    }

    private static final class SmallIntWriter extends FieldWriter {
        private final SmallIntVector vector;

        SmallIntWriter(String path, DataType type, SmallIntVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getShort(pos));
        }
    }

    private static final class IntWriter extends FieldWriter {
        private final IntVector vector;

        IntWriter(String path, DataType type, IntVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getInt(pos));
        }
    }

    private static final class BigIntWriter extends FieldWriter {
        private final BigIntVector vector;

        BigIntWriter(String path, DataType type, BigIntVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getLong(pos));
        }
    }

    private static final class FloatWriter extends FieldWriter {
        private final Float4Vector vector;

        FloatWriter(String path, DataType type, Float4Vector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getFloat(pos));
        }
    }

    private static final class DoubleWriter extends FieldWriter {
        private final Float8Vector vector;

        DoubleWriter(String path, DataType type, Float8Vector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getDouble(pos));
        }
    }

    private static final class StringWriter extends FieldWriter {
        private final VarCharVector vector;

        StringWriter(String path, DataType type, VarCharVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            setUtf8(vector, index, source.getString(pos));
        }
    }

    /**
     * CHAR goes through getChar, not getString: an IndexedRow keeps CHAR(n) in an n-byte slot padded with zero
     * bytes, which only getChar strips. Other rows hold CHAR unpadded, as Fluss's Arrow batches do.
     */
    private static final class CharWriter extends FieldWriter {
        private final VarCharVector vector;
        private final int length;

        CharWriter(String path, CharType type, VarCharVector vector) {
            super(path, type, vector);
            this.vector = vector;
            this.length = type.getLength();
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            setUtf8(vector, index, source.getChar(pos, length));
        }
    }

    private static void setUtf8(VarCharVector vector, int index, BinaryString value) {
        MemorySegment[] segments = value.getSegments();
        byte[] heap = segments.length == 1 ? segments[0].getHeapMemory() : null;
        if (heap != null) {
            // The UTF-8 bytes go straight from Fluss's memory into the Arrow buffer: no String, no byte[] copy.
            vector.setSafe(index, heap, value.getOffset(), value.getSizeInBytes());
        } else {
            // Off-heap or spanning segments: one copy gathers the bytes.
            byte[] bytes = value.toBytes();
            vector.setSafe(index, bytes, 0, bytes.length);
        }
    }

    private static final class FixedBinaryWriter extends FieldWriter {
        private final FixedSizeBinaryVector vector;
        private final int length;

        FixedBinaryWriter(String path, DataType type, FixedSizeBinaryVector vector) {
            super(path, type, vector);
            this.vector = vector;
            this.length = ((BinaryType) type).getLength();
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            byte[] bytes = source.getBinary(pos, length);
            // Arrow copies exactly the vector's width; a shorter value would fail obscurely, a longer one be cut.
            if (bytes.length != length) {
                throw new IllegalArgumentException(String.format(
                        "Field '%s' is BINARY(%d) but the row holds %d bytes there", path, length, bytes.length));
            }
            vector.setSafe(index, bytes);
        }
    }

    private static final class BytesWriter extends FieldWriter {
        private final VarBinaryVector vector;

        BytesWriter(String path, DataType type, VarBinaryVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            byte[] bytes = source.getBytes(pos);
            vector.setSafe(index, bytes, 0, bytes.length);
        }
    }

    private static final class DecimalWriter extends FieldWriter {
        private final DecimalVector vector;
        private final int precision;
        private final int scale;
        private final boolean compact;

        DecimalWriter(String path, DecimalType type, DecimalVector vector) {
            super(path, type, vector);
            this.vector = vector;
            this.precision = type.getPrecision();
            this.scale = type.getScale();
            this.compact = Decimal.isCompact(precision);
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            Decimal value = source.getDecimal(pos, precision, scale);
            if (compact && value.scale() == scale && value.precision() <= precision) {
                // Arrow stores the unscaled value, which a compact decimal already holds as a long: no BigDecimal.
                vector.setSafe(index, value.toUnscaledLong());
            } else {
                // Arrow checks that the value fits the column's precision and scale.
                vector.setSafe(index, value.toBigDecimal());
            }
        }
    }

    private static final class DateWriter extends FieldWriter {
        private final DateDayVector vector;

        DateWriter(String path, DataType type, DateDayVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getInt(pos));
        }
    }

    // Fluss keeps TIME as int milliseconds of the day at every precision; each unit rescales it as Fluss's writer does.

    private static final class TimeSecWriter extends FieldWriter {
        private final TimeSecVector vector;

        TimeSecWriter(String path, DataType type, TimeSecVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getInt(pos) / 1000);
        }
    }

    private static final class TimeMilliWriter extends FieldWriter {
        private final TimeMilliVector vector;

        TimeMilliWriter(String path, DataType type, TimeMilliVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getInt(pos));
        }
    }

    private static final class TimeMicroWriter extends FieldWriter {
        private final TimeMicroVector vector;

        TimeMicroWriter(String path, DataType type, TimeMicroVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getInt(pos) * 1_000L);
        }
    }

    private static final class TimeNanoWriter extends FieldWriter {
        private final TimeNanoVector vector;

        TimeNanoWriter(String path, DataType type, TimeNanoVector vector) {
            super(path, type, vector);
            this.vector = vector;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            vector.setSafe(index, source.getInt(pos) * 1_000_000L);
        }
    }

    private static final class TimestampNtzWriter extends FieldWriter {
        private final TimeStampVector vector;
        private final int precision;
        private final EpochUnits unit;

        TimestampNtzWriter(String path, DataType type, TimeStampVector vector, int precision) {
            super(path, type, vector);
            this.vector = vector;
            this.precision = precision;
            this.unit = EpochUnits.of(((ArrowType.Timestamp) vector.getField().getType()).getUnit());
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            TimestampNtz value = source.getTimestampNtz(pos, precision);
            vector.setSafe(index, unit.count(value.getMillisecond(), value.getNanoOfMillisecond()));
        }
    }

    private static final class TimestampLtzWriter extends FieldWriter {
        private final TimeStampVector vector;
        private final int precision;
        private final EpochUnits unit;

        TimestampLtzWriter(String path, DataType type, TimeStampVector vector, int precision) {
            super(path, type, vector);
            this.vector = vector;
            this.precision = precision;
            this.unit = EpochUnits.of(((ArrowType.Timestamp) vector.getField().getType()).getUnit());
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            TimestampLtz value = source.getTimestampLtz(pos, precision);
            vector.setSafe(index, unit.count(value.getEpochMillisecond(), value.getNanoOfMillisecond()));
        }
    }

    private static final class ArrayWriter extends FieldWriter {
        private final ListVector vector;
        private final FieldWriter element;

        ArrayWriter(String path, DataType type, ListVector vector, FieldWriter element) {
            super(path, type, vector);
            this.vector = vector;
            this.element = element;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            InternalArray array = source.getArray(pos);
            int size = array.size();
            // The start comes from the offsets, not a running counter, so rewriting a failed row's slot stays right.
            int start = vector.startNewValue(index);
            for (int i = 0; i < size; i++) {
                element.write(start + i, array, i);
            }
            vector.endValue(index, size);
        }
    }

    private static final class MapWriter extends FieldWriter {
        private final MapVector vector;
        private final StructVector entries;
        private final FieldWriter key;
        private final FieldWriter value;

        MapWriter(String path, MapType type, MapVector vector, StructVector entries, FieldWriter key,
                FieldWriter value) {
            super(path, type, vector);
            this.vector = vector;
            this.entries = entries;
            this.key = key;
            this.value = value;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            InternalMap map = source.getMap(pos);
            InternalArray keys = map.keyArray();
            InternalArray values = map.valueArray();
            int size = map.size();
            int start = vector.startNewValue(index);
            for (int i = 0; i < size; i++) {
                int entry = start + i;
                entries.setIndexDefined(entry);
                key.write(entry, keys, i);
                value.write(entry, values, i);
            }
            vector.endValue(index, size);
        }
    }

    private static final class RowWriter extends FieldWriter {
        private final StructVector vector;
        private final FieldWriter[] fields;

        RowWriter(String path, RowType type, StructVector vector, FieldWriter[] fields) {
            super(path, type, vector);
            this.vector = vector;
            this.fields = fields;
        }

        @Override
        void writeValue(int index, DataGetters source, int pos) {
            InternalRow row = source.getRow(pos, fields.length);
            vector.setIndexDefined(index);
            for (int i = 0; i < fields.length; i++) {
                fields[i].write(index, row, i);
            }
        }

        @Override
        void setNull(int index) {
            vector.setNull(index);
            // Children are nulled too, so no value from a row that failed part-way is left under a null row.
            for (FieldWriter field : fields) {
                field.setNull(index);
            }
        }
    }
}
