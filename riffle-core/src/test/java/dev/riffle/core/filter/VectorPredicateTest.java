package dev.riffle.core.filter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.types.ArrowRowView;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.IntPredicate;
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
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.predicate.PredicateBuilder;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.Test;

/**
 * A predicate bound to a batch's vectors keeps exactly the rows the predicate itself keeps when it
 * tests each row through an {@link ArrowRowView}: every comparison, null test and string test, on
 * every column type it reads from memory (and on one it does not), with literals taken from the
 * column, between its values, null, NaN, -0.0 and the empty string, alone and under AND / OR.
 */
class VectorPredicateTest {
    private static final RowType ROW = RowType.of(DataTypes.TINYINT(), DataTypes.SMALLINT(), DataTypes.INT(),
            DataTypes.BIGINT(), DataTypes.DATE(), DataTypes.FLOAT(), DataTypes.DOUBLE(), DataTypes.TIMESTAMP(3),
            DataTypes.TIMESTAMP(6), DataTypes.TIMESTAMP_LTZ(3), DataTypes.STRING(), DataTypes.BOOLEAN());
    private static final int ROWS = 400;

    @Test
    void keepsTheRowsThePredicateKeepsRowByRow() {
        Random random = new Random(17);
        try (BufferAllocator allocator = new RootAllocator(); VectorSchemaRoot batch = batch(allocator, random)) {
            int[] positions = new int[ROW.getFieldCount()];
            for (int i = 0; i < positions.length; i++) {
                positions[i] = i;
            }
            ArrowRowView view = new ArrowRowView(batch, positions);
            PredicateBuilder builder = new PredicateBuilder(ROW);
            List<BiFunction<Integer, Object, Predicate>> comparisons = List.of(builder::equal, builder::notEqual,
                    builder::lessThan, builder::lessOrEqual, builder::greaterThan, builder::greaterOrEqual);
            List<Predicate> leaves = new ArrayList<>();
            for (int field = 0; field < ROW.getFieldCount(); field++) {
                leaves.add(builder.isNull(field));
                leaves.add(builder.isNotNull(field));
                for (Object literal : literals(batch, view, field, random)) {
                    for (BiFunction<Integer, Object, Predicate> comparison : comparisons) {
                        leaves.add(comparison.apply(field, literal));
                    }
                    if (field == 10) {
                        leaves.add(builder.startsWith(field, literal));
                        leaves.add(builder.endsWith(field, literal));
                        leaves.add(builder.contains(field, literal));
                    }
                }
            }
            List<Predicate> predicates = new ArrayList<>(leaves);
            for (int i = 0; i < 300; i++) {
                Predicate a = leaves.get(random.nextInt(leaves.size()));
                Predicate b = leaves.get(random.nextInt(leaves.size()));
                Predicate c = leaves.get(random.nextInt(leaves.size()));
                predicates.add(PredicateBuilder.and(a, b));
                predicates.add(PredicateBuilder.or(a, b, c));
                predicates.add(PredicateBuilder.and(PredicateBuilder.or(a, b), c));
            }
            int kept = 0;
            for (Predicate predicate : predicates) {
                IntPredicate bound = VectorPredicate.bind(predicate, batch, positions);
                for (int row = 0; row < ROWS; row++) {
                    boolean expected = predicate.test(view.at(row));
                    assertThat(bound.test(row)).as("%s at row %d", predicate, row).isEqualTo(expected);
                    kept += expected ? 1 : 0;
                }
            }
            assertThat(predicates).hasSizeGreaterThan(1000);
            assertThat(kept).as("rows kept over all predicates").isBetween(predicates.size() * ROWS / 10,
                    predicates.size() * ROWS * 9 / 10);
        }
    }

    /** Literals for one field: values of its rows, values between them, and the edges. */
    private static List<Object> literals(VectorSchemaRoot batch, ArrowRowView view, int field, Random random) {
        InternalRow.FieldGetter getter = InternalRow.createFieldGetter(ROW.getTypeAt(field), field);
        List<Object> literals = new ArrayList<>();
        literals.add(null);
        for (int i = 0; i < 4; i++) {
            Object value = getter.getFieldOrNull(view.at(random.nextInt(ROWS)));
            if (value instanceof BinaryString string) {
                String text = string.toString();
                literals.add(BinaryString.fromString(text));
                literals.add(BinaryString.fromString(text.substring(0, text.length() / 2)));
                literals.add(BinaryString.fromString(text.substring(text.length() / 2)));
            } else if (value instanceof TimestampLtz instant) {
                // Fluss 0.9.1's predicates read a TIMESTAMP_LTZ cell as a TimestampNtz: Riffle's literals are those
                literals.add(TimestampNtz.fromMillis(instant.getEpochMillisecond(), instant.getNanoOfMillisecond()));
            } else if (value != null) {
                literals.add(value);
            }
        }
        switch (field) {
            case 0 -> literals.add((byte) 3);
            case 1 -> literals.add((short) -7);
            case 2, 4 -> literals.add(11);
            case 3 -> literals.add(Long.MIN_VALUE);
            case 5 -> literals.addAll(List.of(Float.NaN, -0.0f, 0.0f, 0.5f));
            case 6 -> literals.addAll(List.of(Double.NaN, -0.0, 0.0, 0.25));
            case 7, 8 -> literals.add(TimestampNtz.fromMillis(1_000_500, 250_000));
            case 9 -> literals.add(TimestampNtz.fromMillis(1_000_500));
            case 10 -> literals.addAll(List.of(BinaryString.fromString(""), BinaryString.fromString("é"),
                    BinaryString.fromString("zz")));
            default -> literals.add(true);
        }
        return literals;
    }

    private static VectorSchemaRoot batch(BufferAllocator allocator, Random random) {
        TinyIntVector tiny = new TinyIntVector("tiny", allocator);
        SmallIntVector small = new SmallIntVector("small", allocator);
        IntVector ints = new IntVector("int", allocator);
        BigIntVector longs = new BigIntVector("long", allocator);
        DateDayVector days = new DateDayVector("day", allocator);
        Float4Vector floats = new Float4Vector("float", allocator);
        Float8Vector doubles = new Float8Vector("double", allocator);
        TimeStampMilliVector millis = new TimeStampMilliVector("ts3", allocator);
        TimeStampMicroVector micros = new TimeStampMicroVector("ts6", allocator);
        TimeStampMilliTZVector instants = new TimeStampMilliTZVector("ltz", allocator, "UTC");
        VarCharVector strings = new VarCharVector("string", allocator);
        BitVector booleans = new BitVector("boolean", allocator);
        List<FieldVector> vectors = List.of(tiny, small, ints, longs, days, floats, doubles, millis, micros, instants,
                strings, booleans);
        vectors.forEach(FieldVector::allocateNew);
        String[] words = {"", "a", "ab", "abc", "é", "naïve", "zz", "日本語", "b/77/c", "77"};
        double[] specials = {Double.NaN, -0.0, 0.0, 0.25, Double.NEGATIVE_INFINITY};
        for (int row = 0; row < ROWS; row++) {
            if (random.nextInt(7) == 0) {
                continue; // a null row in every column
            }
            tiny.setSafe(row, random.nextInt(10) - 3);
            small.setSafe(row, random.nextInt(30) - 15);
            ints.setSafe(row, random.nextInt(40));
            longs.setSafe(row, random.nextInt(5) == 0 ? Long.MIN_VALUE : random.nextLong() % 1000);
            days.setSafe(row, random.nextInt(40));
            floats.setSafe(row, random.nextInt(4) == 0 ? (float) specials[random.nextInt(specials.length)]
                    : random.nextInt(20) / 4.0f);
            doubles.setSafe(row, random.nextInt(4) == 0 ? specials[random.nextInt(specials.length)]
                    : random.nextInt(20) / 4.0);
            millis.setSafe(row, 1_000_000 + random.nextInt(1_000));
            micros.setSafe(row, 1_000_000_000L + random.nextInt(1_000_000) * 1L + (random.nextBoolean() ? 250 : 0));
            instants.setSafe(row, 1_000_000 + random.nextInt(1_000));
            strings.setSafe(row, words[random.nextInt(words.length)].getBytes(StandardCharsets.UTF_8));
            booleans.setSafe(row, random.nextInt(2));
        }
        vectors.forEach(vector -> vector.setValueCount(ROWS));
        return new VectorSchemaRoot(vectors);
    }
}
