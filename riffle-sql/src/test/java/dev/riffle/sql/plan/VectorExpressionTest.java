package dev.riffle.sql.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** Which projected expressions a vectorized aggregate computes itself, and which it leaves to Calcite. */
class VectorExpressionTest {
    private static final List<String> NAMES = List.of("sa", "si", "i", "b", "f", "d", "amt", "name");
    private final JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
    private final RexBuilder rex = new RexBuilder(types);

    private RexNode column(int index) {
        SqlTypeName type = List.of(SqlTypeName.SMALLINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT,
                SqlTypeName.REAL, SqlTypeName.DOUBLE, SqlTypeName.DECIMAL, SqlTypeName.VARCHAR).get(index);
        RelDataType relType = type == SqlTypeName.DECIMAL ? types.createSqlType(type, 12, 2) : types.createSqlType(type);
        return rex.makeInputRef(types.createTypeWithNullability(relType, true), index);
    }

    private String computed(RexNode node) {
        return VectorExpression.of(node).map(e -> e.describe(NAMES) + " : " + e.type()).orElse("<Calcite>");
    }

    @Test
    void integerAndFloatingArithmeticIsComputedInItsResultType() {
        assertThat(computed(rex.makeCall(SqlStdOperatorTable.MULTIPLY, column(3), column(2)))).isEqualTo("b * i : BIGINT");
        assertThat(computed(rex.makeCall(SqlStdOperatorTable.PLUS, column(2),
                rex.makeExactLiteral(BigDecimal.valueOf(3))))).isEqualTo("i + 3 : INTEGER");
        assertThat(computed(rex.makeCall(SqlStdOperatorTable.MINUS, column(5),
                rex.makeCall(SqlStdOperatorTable.MULTIPLY, column(4), column(2))))).isEqualTo("d - (f * i) : DOUBLE");
        assertThat(computed(rex.makeCall(SqlStdOperatorTable.UNARY_MINUS, column(2)))).isEqualTo("-i : INTEGER");
        assertThat(computed(rex.makeCast(types.createSqlType(SqlTypeName.DOUBLE), column(3))))
                .isEqualTo("CAST(b AS DOUBLE) : DOUBLE");
        // Any column as it is (a group key, a MIN argument), whatever its type.
        assertThat(computed(column(7))).isEqualTo("name : VARCHAR");
    }

    @Test
    void whatCalciteComputesDifferentlyStaysWithCalcite() {
        // Division (integer division, division by zero), decimals, narrowing casts, functions.
        assertThat(computed(rex.makeCall(SqlStdOperatorTable.DIVIDE, column(2), column(2)))).isEqualTo("<Calcite>");
        assertThat(computed(rex.makeCall(SqlStdOperatorTable.MULTIPLY, column(6), column(2)))).isEqualTo("<Calcite>");
        assertThat(computed(rex.makeCast(types.createSqlType(SqlTypeName.INTEGER), column(3)))).isEqualTo("<Calcite>");
        assertThat(computed(rex.makeCast(types.createSqlType(SqlTypeName.REAL), column(5)))).isEqualTo("<Calcite>");
        assertThat(computed(rex.makeCall(SqlStdOperatorTable.CHAR_LENGTH, column(7)))).isEqualTo("<Calcite>");
        // A SMALLINT result: Calcite narrows the int sum its own way.
        assertThat(computed(rex.makeCall(SqlStdOperatorTable.PLUS, column(0), column(1)))).isEqualTo("<Calcite>");
        // A fraction in floating arithmetic, and an integer literal its type cannot hold.
        assertThat(computed(rex.makeCall(SqlStdOperatorTable.MULTIPLY, column(5),
                rex.makeExactLiteral(new BigDecimal("0.1"))))).isEqualTo("<Calcite>");
        assertThat(computed(rex.makeCall(SqlStdOperatorTable.PLUS, column(2),
                rex.makeExactLiteral(BigDecimal.valueOf(5_000_000_000L), types.createSqlType(SqlTypeName.INTEGER)))))
                .isEqualTo("<Calcite>");
    }
}
