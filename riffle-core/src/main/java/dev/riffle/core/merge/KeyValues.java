package dev.riffle.core.merge;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.Text;

/**
 * A row's primary-key value as a map key with value equality, the same whichever side of a merge
 * (lake, KV snapshot, log) it came from: text as {@code String}, binary as a {@code ByteBuffer},
 * several columns as a list.
 */
final class KeyValues {
    private KeyValues() {}

    static Object of(VectorSchemaRoot root, int[] keys, int row) {
        if (keys.length == 1) {
            return part(root.getVector(keys[0]).getObject(row));
        }
        Object[] parts = new Object[keys.length];
        for (int i = 0; i < keys.length; i++) {
            parts[i] = part(root.getVector(keys[i]).getObject(row));
        }
        return Arrays.asList(parts);
    }

    private static Object part(Object value) {
        if (value instanceof Text text) {
            return text.toString();
        }
        if (value instanceof byte[] bytes) {
            return ByteBuffer.wrap(bytes);
        }
        return value;
    }
}
