package dev.riffle.core.values;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.EpochUnits;
import java.util.List;
import org.apache.fluss.row.DataGetters;
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
import org.apache.fluss.types.TimeType;
import org.apache.fluss.types.TimestampType;

/**
 * Reads one field of Fluss rows (what lookups and the KV store hand back) into a
 * {@link ValueSink}, exactly as {@link ArrowValueReader} reads the same value from the Arrow batch
 * Riffle would have made of the row: a looked-up row renders as a scanned one, without building a
 * batch for it. One reader per column type, chosen once.
 *
 * <pre>{@code
 * List<FlussValueReader> columns = FlussValueReader.ofFields(table.getRowType());
 * for (int pos = 0; pos < columns.size(); pos++) {
 *     columns.get(pos).read(row, pos, sink);
 * }
 * }</pre>
 */
public abstract class FlussValueReader {

    private FlussValueReader() {}

    /** The reader of values of {@code type}. */
    public static FlussValueReader of(DataType type) {
        requireNonNull(type, "type is null");
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> reader((s, p, sink) -> sink.booleanValue(s.getBoolean(p)));
            case TINYINT -> reader((s, p, sink) -> sink.integerValue(s.getByte(p)));
            case SMALLINT -> reader((s, p, sink) -> sink.integerValue(s.getShort(p)));
            case INTEGER -> reader((s, p, sink) -> sink.integerValue(s.getInt(p)));
            case BIGINT -> reader((s, p, sink) -> sink.integerValue(s.getLong(p)));
            case FLOAT -> reader((s, p, sink) -> sink.floatValue(s.getFloat(p)));
            case DOUBLE -> reader((s, p, sink) -> sink.doubleValue(s.getDouble(p)));
            case DECIMAL -> {
                DecimalType decimal = (DecimalType) type;
                int precision = decimal.getPrecision();
                int scale = decimal.getScale();
                yield reader((s, p, sink) -> sink.decimalValue(s.getDecimal(p, precision, scale).toBigDecimal()));
            }
            case CHAR -> {
                int length = ((CharType) type).getLength();
                // getChar strips the padding an IndexedRow keeps CHAR(n) in.
                yield reader((s, p, sink) -> sink.stringValue(s.getChar(p, length).toString()));
            }
            case STRING -> reader((s, p, sink) -> sink.stringValue(s.getString(p).toString()));
            case BINARY -> {
                int length = ((BinaryType) type).getLength();
                yield reader((s, p, sink) -> sink.binaryValue(s.getBinary(p, length)));
            }
            case BYTES -> reader((s, p, sink) -> sink.binaryValue(s.getBytes(p)));
            case DATE -> reader((s, p, sink) -> sink.dateValue(s.getInt(p)));
            case TIME_WITHOUT_TIME_ZONE -> {
                // Fluss keeps TIME as milliseconds of the day; TIME(0) is stored in whole seconds.
                boolean seconds = ((TimeType) type).getPrecision() == 0;
                yield reader((s, p, sink) -> {
                    long millis = s.getInt(p);
                    sink.timeValue((seconds ? millis / 1000 * 1000 : millis) * 1_000_000L);
                });
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE -> {
                int precision = ((TimestampType) type).getPrecision();
                EpochUnits unit = EpochUnits.of(EpochUnits.unitOfPrecision(precision));
                yield reader((s, p, sink) -> {
                    TimestampNtz value = s.getTimestampNtz(p, precision);
                    long count = unit.count(value.getMillisecond(), value.getNanoOfMillisecond());
                    sink.timestampValue(unit.epochSecond(count), unit.nanoOfSecond(count));
                });
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                int precision = ((LocalZonedTimestampType) type).getPrecision();
                EpochUnits unit = EpochUnits.of(EpochUnits.unitOfPrecision(precision));
                yield reader((s, p, sink) -> {
                    TimestampLtz value = s.getTimestampLtz(p, precision);
                    long count = unit.count(value.getEpochMillisecond(), value.getNanoOfMillisecond());
                    sink.instantValue(unit.epochSecond(count), unit.nanoOfSecond(count));
                });
            }
            case ARRAY -> {
                FlussValueReader element = of(((ArrayType) type).getElementType());
                yield reader((s, p, sink) -> {
                    InternalArray array = s.getArray(p);
                    sink.startArray(array.size());
                    for (int i = 0; i < array.size(); i++) {
                        element.read(array, i, sink);
                    }
                    sink.endArray();
                });
            }
            case MAP -> {
                MapType map = (MapType) type;
                FlussValueReader key = of(map.getKeyType());
                FlussValueReader value = of(map.getValueType());
                yield reader((s, p, sink) -> {
                    InternalMap entries = s.getMap(p);
                    InternalArray keys = entries.keyArray();
                    InternalArray values = entries.valueArray();
                    sink.startMap(entries.size());
                    for (int i = 0; i < entries.size(); i++) {
                        key.read(keys, i, sink);
                        value.read(values, i, sink);
                    }
                    sink.endMap();
                });
            }
            case ROW -> {
                List<DataField> fields = ((RowType) type).getFields();
                List<FlussValueReader> readers = fields.stream().map(f -> of(f.getType())).toList();
                yield reader((s, p, sink) -> {
                    InternalRow row = s.getRow(p, fields.size());
                    sink.startRow(fields.size());
                    for (int i = 0; i < fields.size(); i++) {
                        sink.fieldName(fields.get(i).getName());
                        readers.get(i).read(row, i, sink);
                    }
                    sink.endRow();
                });
            }
            default -> throw new IllegalArgumentException("No reader for Fluss type " + type);
        };
    }

    /** The readers of every field of {@code rowType}, in field order. */
    public static List<FlussValueReader> ofFields(RowType rowType) {
        return rowType.getFields().stream().map(field -> of(field.getType())).toList();
    }

    /** Reads position {@code pos} of {@code source} (null or a value) into {@code sink}. */
    public abstract void read(DataGetters source, int pos, ValueSink sink);

    private interface Value {
        void read(DataGetters source, int pos, ValueSink sink);
    }

    private static FlussValueReader reader(Value value) {
        return new FlussValueReader() {
            @Override
            public void read(DataGetters source, int pos, ValueSink sink) {
                if (source.isNullAt(pos)) {
                    sink.nullValue();
                } else {
                    value.read(source, pos, sink);
                }
            }
        };
    }
}
