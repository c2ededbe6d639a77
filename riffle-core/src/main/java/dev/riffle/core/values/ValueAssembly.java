package dev.riffle.core.values;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidValueException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;

/**
 * The bookkeeping of a sink that builds values of a column type: which type the next value must
 * have (inside arrays, maps and rows too), where in a nested value it stands (for error
 * messages), and the parts of each nested value once it ends. Each building sink
 * ({@link FlussValueSink}, SQL's Calcite sink) decides only what its values and containers are.
 *
 * <pre>{@code
 * ValueAssembly assembly = new ValueAssembly(DataTypes.ARRAY(DataTypes.INT()));
 * assembly.open();                       // startArray: the next values are INTs
 * assembly.put(1);
 * ValueAssembly.Parts parts = assembly.close();   // parts.elements() = [1]
 * }</pre>
 */
public final class ValueAssembly {
    private final DataType type;
    /** Open nested values, innermost first; made at the first (most values are not nested). */
    private ArrayDeque<Frame> open;
    private Object value;

    /**
     * What a nested value was made of: the elements of an array or the fields of a row in order,
     * or the entries of a map in order.
     */
    public record Parts(DataType type, List<Object> elements, Map<Object, Object> entries) {}

    private static final class Frame {
        final DataType type;
        final List<Object> elements = new ArrayList<>();
        final Map<Object, Object> entries = new LinkedHashMap<>();
        Object pendingKey;
        boolean expectKey = true;

        Frame(DataType type) {
            this.type = type;
        }

        DataType next() {
            if (type instanceof ArrayType array) {
                return array.getElementType();
            }
            if (type instanceof MapType map) {
                return expectKey ? map.getKeyType() : map.getValueType();
            }
            RowType row = (RowType) type;
            if (elements.size() >= row.getFieldCount()) {
                throw new InvalidValueException("a row of " + (elements.size() + 1) + "+ fields where " + row + " has "
                        + row.getFieldCount());
            }
            return row.getTypeAt(elements.size());
        }

        String where() {
            if (type instanceof ArrayType) {
                return "[" + elements.size() + "]";
            }
            if (type instanceof MapType) {
                return expectKey ? "{key}" : "{value}";
            }
            return "." + ((RowType) type).getFieldNames().get(elements.size());
        }

        void add(Object v) {
            if (type instanceof MapType) {
                if (expectKey) {
                    pendingKey = v;
                } else {
                    entries.put(pendingKey, v);
                }
                expectKey = !expectKey;
            } else {
                elements.add(v);
            }
        }
    }

    /** Values of a column of {@code type}. */
    public ValueAssembly(DataType type) {
        this.type = requireNonNull(type, "type is null");
    }

    /** The type the next value must have. */
    public DataType current() {
        return open == null || open.isEmpty() ? type : open.peek().next();
    }

    /** Whether a nested value is open (the next value goes into it). */
    public boolean nested() {
        return open != null && !open.isEmpty();
    }

    /** Where the next value stands, for an error message: {@code "at [2].x: "}, or empty at the top. */
    public String where() {
        if (!nested()) {
            return "";
        }
        StringBuilder path = new StringBuilder();
        open.descendingIterator().forEachRemaining(frame -> path.append(frame.where()));
        return "at " + path + ": ";
    }

    /** Starts a nested value of the current type (an array, map or row). */
    public void open() {
        DataType container = current();
        if (!(container instanceof ArrayType || container instanceof MapType || container instanceof RowType)) {
            throw new IllegalStateException("A nested value opened where " + container + " goes");
        }
        if (open == null) {
            open = new ArrayDeque<>();
        }
        open.push(new Frame(container));
    }

    /**
     * Ends the innermost nested value and hands its parts over; the caller builds the value and
     * {@link #put}s it.
     */
    public Parts close() {
        Frame frame = open.pop();
        return new Parts(frame.type, frame.elements, frame.entries);
    }

    /** Places a value: into the open nested value, or as the value of the column. */
    public void put(Object v) {
        if (!nested()) {
            value = v;
        } else {
            open.peek().add(v);
        }
    }

    /** The column's value placed last (null for NULL); ready for the next one. */
    public Object take() {
        Object taken = value;
        value = null;
        return taken;
    }
}
