package dev.riffle.core.types;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Dictionary-encoded columns of incoming Arrow data as the values they stand for. An encoded
 * column's vector holds indices into a dictionary the stream sent separately; Fluss stores values,
 * so writers decode such columns first and then treat the batch like any other. Only top-level
 * columns are decoded; an encoded field nested in a list or struct stays encoded (and is refused by
 * {@link ArrowTypeMapping} with a message saying so).
 *
 * <pre>{@code
 * List<Field> fields = ArrowDictionaries.decodedFields(reader.getVectorSchemaRoot().getSchema().getFields(), reader);
 * while (reader.loadNextBatch()) {
 *     try (VectorSchemaRoot values = ArrowDictionaries.decode(reader.getVectorSchemaRoot(), reader, allocator)) {
 *         ...
 *     }
 * }
 * }</pre>
 */
public final class ArrowDictionaries {
    private ArrowDictionaries() {}

    /** Whether any top-level column among {@code fields} is dictionary-encoded. */
    public static boolean anyEncoded(List<Field> fields) {
        return fields.stream().anyMatch(field -> field.getDictionary() != null);
    }

    /**
     * {@code fields} with each dictionary-encoded column as its dictionary's value type, under the
     * column's own name and nullability.
     *
     * @throws IllegalArgumentException when a column refers to a dictionary {@code dictionaries} does not hold
     */
    public static List<Field> decodedFields(List<Field> fields, DictionaryProvider dictionaries) {
        requireNonNull(dictionaries, "dictionaries is null");
        List<Field> decoded = new ArrayList<>(fields.size());
        for (Field field : fields) {
            decoded.add(field.getDictionary() == null ? field : valueField(field, dictionary(field, dictionaries)));
        }
        return decoded;
    }

    /**
     * A batch of the values {@code batch} stands for, allocated from {@code allocator} and owned by
     * the caller: encoded columns are decoded (copied out of their dictionaries), the others are
     * moved out of {@code batch}, which is left empty.
     */
    public static VectorSchemaRoot decode(VectorSchemaRoot batch, DictionaryProvider dictionaries,
            BufferAllocator allocator) {
        requireNonNull(batch, "batch is null");
        requireNonNull(dictionaries, "dictionaries is null");
        requireNonNull(allocator, "allocator is null");
        List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors().size());
        try {
            for (FieldVector vector : batch.getFieldVectors()) {
                Field field = vector.getField();
                if (field.getDictionary() == null) {
                    FieldVector moved = field.createVector(allocator);
                    vectors.add(moved);
                    vector.makeTransferPair(moved).transfer();
                    continue;
                }
                Dictionary dictionary = dictionary(field, dictionaries);
                FieldVector values = valueField(field, dictionary).createVector(allocator);
                vectors.add(values);
                try (ValueVector decoded = DictionaryEncoder.decode(vector, dictionary, allocator)) {
                    // Renamed: the decoded vector carries the dictionary's name, the batch needs the column's.
                    decoded.makeTransferPair(values).transfer();
                }
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        VectorSchemaRoot values = new VectorSchemaRoot(vectors);
        values.setRowCount(batch.getRowCount());
        return values;
    }

    private static Dictionary dictionary(Field field, DictionaryProvider dictionaries) {
        long id = field.getDictionary().getId();
        Dictionary dictionary = dictionaries.lookup(id);
        if (dictionary == null) {
            throw new IllegalArgumentException("Column '" + field.getName() + "' is encoded with dictionary " + id
                    + ", which the stream did not send");
        }
        return dictionary;
    }

    private static Field valueField(Field column, Dictionary dictionary) {
        Field values = dictionary.getVector().getField();
        return new Field(column.getName(), new FieldType(column.isNullable(), values.getType(), null,
                column.getMetadata()), values.getChildren());
    }
}
