package dev.riffle.sql.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** Which residual conditions a vectorized aggregate checks on the batches, and which stay Calcite's. */
class VectorConditionTest {
    private static final List<String> NAMES = List.of("i", "b", "d", "name", "flag");
    private final JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
    private final RexBuilder rex = new RexBuilder(types);

    private RexNode column(int index) {
        SqlTypeName type = List.of(SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.DOUBLE, SqlTypeName.VARCHAR,
                SqlTypeName.BOOLEAN).get(index);
        return rex.makeInputRef(types.createTypeWithNullability(types.createSqlType(type), true), index);
    }

    private String checked(RexNode node) {
        return VectorCondition.of(node, rex).map(c -> c.describe(NAMES)).orElse("<Calcite>");
    }

    @Test
    void comparisonsOfNumbersAndTheirJunctions() {
        RexNode sum = rex.makeCall(SqlStdOperatorTable.PLUS, column(0), rex.makeExactLiteral(BigDecimal.ONE));
        RexNode greater = rex.makeCall(SqlStdOperatorTable.GREATER_THAN, sum, column(1));
        assertThat(checked(greater)).isEqualTo("i + 1 > b");
        assertThat(VectorCondition.of(greater, rex)).get().isInstanceOfSatisfying(VectorCondition.Comparison.class,
                comparison -> assertThat(comparison.type()).as("compared as longs").isEqualTo(SqlTypeName.BIGINT));
        RexNode either = rex.makeCall(SqlStdOperatorTable.OR, greater,
                rex.makeCall(SqlStdOperatorTable.IS_NULL, column(2)));
        assertThat(checked(rex.makeCall(SqlStdOperatorTable.NOT, either))).isEqualTo("NOT ((i + 1 > b) OR (d IS NULL))");
    }

    @Test
    void anythingElseStaysWithCalcite() {
        assertThat(checked(rex.makeCall(SqlStdOperatorTable.EQUALS, column(3), rex.makeLiteral("x"))))
                .isEqualTo("<Calcite>");
        assertThat(checked(rex.makeCall(SqlStdOperatorTable.GREATER_THAN, column(2),
                rex.makeExactLiteral(new BigDecimal("0.5"))))).isEqualTo("<Calcite>");
        assertThat(checked(column(4))).isEqualTo("<Calcite>");
        // One part Calcite's makes the whole condition Calcite's.
        assertThat(checked(rex.makeCall(SqlStdOperatorTable.AND,
                rex.makeCall(SqlStdOperatorTable.GREATER_THAN, column(0), column(1)),
                rex.makeCall(SqlStdOperatorTable.LIKE, column(3), rex.makeLiteral("a%"))))).isEqualTo("<Calcite>");
    }
}
