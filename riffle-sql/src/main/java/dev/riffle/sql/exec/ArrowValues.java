package dev.riffle.sql.exec;

import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;
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
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Arrow vectors (as Riffle's readers produce them) into the Java values Calcite's
 * generated code expects: {@code Integer} days for {@code DATE}, {@code Integer} milliseconds for
 * {@code TIME}, {@code Long} epoch milliseconds for timestamps, {@code ByteString} for binary.
 */
final class ArrowValues {
    private ArrowValues() {}

    /** A reader of row {@code i} of {@code vector}; null for a null cell. */
    static IntFunction<Object> reader(FieldVector vector) {
        IntFunction<Object> value = valueReader(vector);
        // most batches have no nulls in most columns: skip the validity check per cell then
        return vector.getNullCount() == 0 ? value : row -> vector.isNull(row) ? null : value.apply(row);
    }

    private static IntFunction<Object> valueReader(FieldVector vector) {
        if (vector instanceof BitVector v) {
            return row -> v.get(row) != 0;
        } else if (vector instanceof TinyIntVector v) {
            return v::get;
        } else if (vector instanceof SmallIntVector v) {
            return v::get;
        } else if (vector instanceof IntVector v) {
            return v::get;
        } else if (vector instanceof BigIntVector v) {
            return v::get;
        } else if (vector instanceof Float4Vector v) {
            return v::get;
        } else if (vector instanceof Float8Vector v) {
            return v::get;
        } else if (vector instanceof VarCharVector v) {
            return row -> new String(v.get(row), StandardCharsets.UTF_8);
        } else if (vector instanceof VarBinaryVector v) {
            return row -> new ByteString(v.get(row));
        } else if (vector instanceof FixedSizeBinaryVector v) {
            return row -> new ByteString(v.get(row));
        } else if (vector instanceof DecimalVector v) {
            return v::getObject;
        } else if (vector instanceof DateDayVector v) {
            return v::get;
        } else if (vector instanceof TimeSecVector v) {
            return row -> v.get(row) * 1000;
        } else if (vector instanceof TimeMilliVector v) {
            return v::get;
        } else if (vector instanceof TimeMicroVector v) {
            return row -> (int) (v.get(row) / 1000);
        } else if (vector instanceof TimeNanoVector v) {
            return row -> (int) (v.get(row) / 1_000_000);
        } else if (vector instanceof TimeStampVector v) {
            TimeUnit unit = ((ArrowType.Timestamp) v.getField().getType()).getUnit();
            return switch (unit) {
                case SECOND -> row -> v.get(row) * 1000;
                case MILLISECOND -> v::get;
                case MICROSECOND -> row -> Math.floorDiv(v.get(row), 1000L);
                case NANOSECOND -> row -> Math.floorDiv(v.get(row), 1_000_000L);
            };
        } else if (vector instanceof MapVector v) {
            StructVector entries = (StructVector) v.getDataVector();
            IntFunction<Object> keys = reader((FieldVector) entries.getChildrenFromFields().get(0));
            IntFunction<Object> values = reader((FieldVector) entries.getChildrenFromFields().get(1));
            return row -> {
                Map<Object, Object> map = new LinkedHashMap<>();
                for (int i = v.getElementStartIndex(row); i < v.getElementEndIndex(row); i++) {
                    map.put(keys.apply(i), values.apply(i));
                }
                return map;
            };
        } else if (vector instanceof ListVector v) {
            IntFunction<Object> elements = reader(v.getDataVector());
            return row -> {
                List<Object> list = new ArrayList<>();
                for (int i = v.getElementStartIndex(row); i < v.getElementEndIndex(row); i++) {
                    list.add(elements.apply(i));
                }
                return list;
            };
        } else if (vector instanceof StructVector v) {
            List<IntFunction<Object>> fields = new ArrayList<>();
            for (var child : v.getChildrenFromFields()) {
                fields.add(reader((FieldVector) child));
            }
            return row -> {
                Object[] values = new Object[fields.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = fields.get(i).apply(row);
                }
                return values;
            };
        } else if (vector != null) {
            // ROW: shown as text (see SqlTypes).
            return row -> String.valueOf(vector.getObject(row));
        }
        throw new IllegalArgumentException("No vector");
    }
}
