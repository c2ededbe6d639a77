package dev.riffle.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.sql.plan.AggregatePlan.Aggregation;
import dev.riffle.sql.plan.AggregatePlan.Function;
import dev.riffle.sql.plan.AggregatePlan;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * An aggregation whose batches are shared between it and a sibling, the sibling merged in at the
 * end, answers as one aggregation over every batch: the same groups with the same keys, counts,
 * distinct counts, sums and extremes, for every way of grouping (none, one column, several).
 */
class HashAggregationMergeTest {
    /** Columns: 0 region (string, nulls), 1 user (bigint), 2 status (int, nulls), 3 amount (double, nulls), 4 price (decimal). */
    private static final List<Aggregation> AGGREGATES = List.of(
            new Aggregation(Function.COUNT_ROWS, -1, SqlTypeName.BIGINT),
            new Aggregation(Function.COUNT, 2, SqlTypeName.BIGINT),
            new Aggregation(Function.COUNT_DISTINCT, 1, SqlTypeName.BIGINT),
            new Aggregation(Function.COUNT_DISTINCT, 0, SqlTypeName.BIGINT),
            new Aggregation(Function.SUM, 2, SqlTypeName.INTEGER),
            new Aggregation(Function.SUM, 4, SqlTypeName.DECIMAL),
            new Aggregation(Function.SUM0, 3, SqlTypeName.DOUBLE),
            new Aggregation(Function.MIN, 3, SqlTypeName.DOUBLE),
            new Aggregation(Function.MAX, 1, SqlTypeName.BIGINT),
            new Aggregation(Function.MIN, 0, SqlTypeName.VARCHAR),
            new Aggregation(Function.MAX, 4, SqlTypeName.DECIMAL));

    @Test
    void groupsSharedWithASiblingAndMergedAreTheGroupsOfOneAggregation() {
        for (List<Integer> keys : List.of(List.<Integer>of(), List.of(0), List.of(1), List.of(2), List.of(0, 2),
                List.of(2, 0, 1))) {
            AggregatePlan plan = new AggregatePlan(keys, AGGREGATES);
            try (BufferAllocator allocator = new RootAllocator()) {
                List<VectorSchemaRoot> batches = batches(allocator, new Random(keys.hashCode()));
                try {
                    HashAggregation whole = new HashAggregation(plan);
                    batches.forEach(batch -> whole.add(batch, batch.getRowCount()));

                    HashAggregation shared = new HashAggregation(plan);
                    shared.add(batches.get(0), batches.get(0).getRowCount());
                    HashAggregation sibling = shared.sibling();
                    Random split = new Random(5);
                    for (VectorSchemaRoot batch : batches.subList(1, batches.size())) {
                        (split.nextBoolean() ? shared : sibling).add(batch, batch.getRowCount());
                    }
                    shared.absorb(sibling);

                    Map<List<Object>, List<Object>> expected = byKey(whole.rows(), keys.size());
                    assertThat(byKey(shared.rows(), keys.size())).as("groups by %s", keys)
                            .hasSameSizeAs(expected).isEqualTo(expected);
                    assertThat(expected.size()).as("groups by %s", keys).isGreaterThan(keys.isEmpty() ? 0 : 3);
                } finally {
                    batches.forEach(VectorSchemaRoot::close);
                }
            }
        }
    }

    /** Rows by their key values; a double rounded to 9 significant digits, as adding in another order may change its last bits. */
    private static Map<List<Object>, List<Object>> byKey(List<Object> rows, int keys) {
        Map<List<Object>, List<Object>> byKey = new HashMap<>();
        for (Object row : rows) {
            List<Object> values = new ArrayList<>();
            for (Object value : (Object[]) row) {
                values.add(value instanceof Double d && !d.isNaN() && d != 0
                        ? new BigDecimal(d).round(new java.math.MathContext(9)) : value);
            }
            assertThat(byKey.put(values.subList(0, keys), values.subList(keys, values.size())))
                    .as("one group per key").isNull();
        }
        return byKey;
    }

    private static List<VectorSchemaRoot> batches(BufferAllocator allocator, Random random) {
        String[] regions = {"eu", "us", "ap", "sa", "af", "", "日本"};
        List<VectorSchemaRoot> batches = new ArrayList<>();
        for (int b = 0; b < 24; b++) {
            int rows = 1 + random.nextInt(400);
            VarCharVector region = new VarCharVector("region", allocator);
            BigIntVector user = new BigIntVector("user", allocator);
            IntVector status = new IntVector("status", allocator);
            Float8Vector amount = new Float8Vector("amount", allocator);
            DecimalVector price = new DecimalVector("price", allocator, 12, 2);
            region.allocateNew();
            user.allocateNew(rows);
            status.allocateNew(rows);
            amount.allocateNew(rows);
            price.allocateNew(rows);
            for (int row = 0; row < rows; row++) {
                if (random.nextInt(10) > 0) {
                    region.setSafe(row, regions[random.nextInt(regions.length)].getBytes(StandardCharsets.UTF_8));
                }
                user.set(row, random.nextInt(500) - 100);
                if (random.nextInt(8) > 0) {
                    status.set(row, 200 + 100 * random.nextInt(4));
                }
                if (random.nextInt(6) > 0) {
                    amount.set(row, random.nextInt(3) == 0 ? -0.0 : random.nextGaussian() * 1000);
                }
                price.set(row, BigDecimal.valueOf(random.nextInt(100_000), 2));
            }
            for (var vector : Arrays.asList(region, user, status, amount, price)) {
                vector.setValueCount(rows);
            }
            batches.add(VectorSchemaRoot.of(region, user, status, amount, price));
        }
        return batches;
    }
}
