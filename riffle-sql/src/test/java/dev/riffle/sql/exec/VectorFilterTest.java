package dev.riffle.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.filter.ComparisonOperator;
import dev.riffle.sql.plan.VectorCondition.Comparison;
import dev.riffle.sql.plan.VectorCondition.Junction;
import dev.riffle.sql.plan.VectorCondition.Negation;
import dev.riffle.sql.plan.VectorCondition.NullCheck;
import dev.riffle.sql.plan.VectorCondition;
import dev.riffle.sql.plan.VectorExpression.Column;
import dev.riffle.sql.plan.VectorExpression.Constant;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** Which rows a residual condition keeps: SQL's three-valued logic, the kept rows copied in order. */
class VectorFilterTest {
    private static final Column A = new Column(0, SqlTypeName.INTEGER);
    private static final Column B = new Column(1, SqlTypeName.INTEGER);

    @Test
    void keepsOnlyRowsWhereTheConditionIsTrue() {
        // a:    1,    2, null,    4,    5
        // b:    1, null,    3,    0,    9
        // name: s0,  s1, null,   s3,   s4
        Integer[] a = {1, 2, null, 4, 5};
        Integer[] b = {1, null, 3, 0, 9};
        try (BufferAllocator allocator = new RootAllocator(); VectorSchemaRoot batch = batch(allocator, a, b)) {
            long batchBytes = allocator.getAllocatedMemory();
            // a < b: false, unknown, unknown, false, true
            assertThat(kept(allocator, batch, new Comparison(ComparisonOperator.LESS_THAN, A, B, SqlTypeName.INTEGER)))
                    .containsExactly("5:s4");
            // NOT (a < b): unknown stays unknown, so only the false rows turn true.
            assertThat(kept(allocator, batch, new Negation(new Comparison(ComparisonOperator.LESS_THAN, A, B, SqlTypeName.INTEGER))))
                    .containsExactly("1:s0", "4:s3");
            // a < b OR b IS NULL: an unknown operand is decided by a true one.
            assertThat(kept(allocator, batch, new Junction(false, List.of(
                    new Comparison(ComparisonOperator.LESS_THAN, A, B, SqlTypeName.INTEGER), new NullCheck(B, false)))))
                    .containsExactly("2:s1", "5:s4");
            // a >= 1 AND a IS NOT NULL: every non-null a.
            assertThat(kept(allocator, batch, new Junction(true, List.of(
                    new Comparison(ComparisonOperator.GREATER_OR_EQUAL, A, new Constant(1L, SqlTypeName.INTEGER), SqlTypeName.INTEGER),
                    new NullCheck(A, true))))).containsExactly("1:s0", "2:s1", "4:s3", "5:s4");
            // A string column is null or not, though nothing computes with strings.
            assertThat(kept(allocator, batch, new Junction(false, List.of(
                    new NullCheck(new Column(2, SqlTypeName.VARCHAR), false),
                    new Comparison(ComparisonOperator.GREATER_THAN, A, new Constant(4L, SqlTypeName.INTEGER), SqlTypeName.INTEGER)))))
                    .containsExactly("null:null", "5:s4");
            assertThat(allocator.getAllocatedMemory()).as("copies freed").isEqualTo(batchBytes);
        }
    }

    /** The kept rows as {@code a:name}, and the filter closed. */
    private static List<String> kept(BufferAllocator allocator, VectorSchemaRoot batch, VectorCondition condition) {
        List<String> rows = new ArrayList<>();
        try (VectorFilter filter = new VectorFilter(condition, allocator)) {
            VectorFilter.Kept kept = filter.apply(batch, batch.getRowCount());
            for (int row = 0; row < kept.rows(); row++) {
                rows.add(kept.batch().getVector(0).getObject(row) + ":" + kept.batch().getVector(2).getObject(row));
            }
        }
        return rows;
    }

    /** Columns a and b (INT, nulls where given) and a name {@code s<row>}, null in row 2. */
    private static VectorSchemaRoot batch(BufferAllocator allocator, Integer[] a, Integer[] b) {
        IntVector first = new IntVector("a", allocator);
        IntVector second = new IntVector("b", allocator);
        VarCharVector names = new VarCharVector("name", allocator);
        first.allocateNew(a.length);
        second.allocateNew(a.length);
        names.allocateNew(a.length);
        for (int row = 0; row < a.length; row++) {
            if (a[row] != null) {
                first.set(row, a[row]);
            }
            if (b[row] != null) {
                second.set(row, b[row]);
            }
            if (row != 2) {
                names.set(row, ("s" + row).getBytes(StandardCharsets.UTF_8));
            }
        }
        VectorSchemaRoot root = VectorSchemaRoot.of(first, second, names);
        root.setRowCount(a.length);
        return root;
    }
}
