package dev.riffle.sql.planner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.sql.plan.PushedCondition;
import dev.riffle.sql.types.FlussTypeSystem;
import dev.riffle.sql.types.SqlTypes;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.Test;

class ConditionTranslatorTest {
    private static final RowType ROW = RowType.of(new org.apache.fluss.types.DataType[] {DataTypes.INT(),
            DataTypes.STRING(), DataTypes.DECIMAL(10, 2), DataTypes.TIMESTAMP_LTZ(3)},
            new String[] {"id", "name", "amount", "at"});
    private final JavaTypeFactoryImpl types = new JavaTypeFactoryImpl();
    private final RexBuilder rex = new RexBuilder(types);
    private final RelDataType rowType = SqlTypes.rowType(types, ROW);
    private final ConditionTranslator translator = new ConditionTranslator(rex, List.of(0, 1, 2, 3), ROW);

    private RexNode column(int i) {
        return rex.makeInputRef(rowType.getFieldList().get(i).getType(), i);
    }

    private String translated(RexNode node) {
        Optional<PushedCondition> condition = translator.translate(node);
        return condition.map(PushedCondition::describe).orElse("<not pushed>");
    }

    @Test
    void comparisonsWithLiteralsAndParametersInEitherOrder() {
        assertThat(translated(rex.makeCall(SqlStdOperatorTable.LESS_THAN, rex.makeExactLiteral(BigDecimal.TEN),
                column(0)))).isEqualTo("id > 10");
        assertThat(translated(rex.makeCall(SqlStdOperatorTable.EQUALS, column(1),
                rex.makeDynamicParam(types.createSqlType(SqlTypeName.VARCHAR), 0)))).isEqualTo("name = ?0");
        assertThat(translated(rex.makeCall(SqlStdOperatorTable.IS_NULL, column(2)))).isEqualTo("amount IS NULL");
    }

    @Test
    void inListsRangesAndLikePatterns() {
        RexNode in = rex.makeIn(column(0), List.of(rex.makeExactLiteral(BigDecimal.ONE),
                rex.makeExactLiteral(BigDecimal.valueOf(3))));
        assertThat(translated(in)).isEqualTo("id IN (1, 3)");
        RexNode between = rex.makeBetween(column(0), rex.makeExactLiteral(BigDecimal.ONE),
                rex.makeExactLiteral(BigDecimal.TEN));
        assertThat(translated(between)).isEqualTo("(id >= 1 AND id <= 10)");
        assertThat(translated(like("ab%"))).isEqualTo("name LIKE 'ab'%");
        assertThat(translated(like("%ab"))).isEqualTo("name LIKE %'ab'");
        assertThat(translated(like("%ab%"))).isEqualTo("name LIKE %'ab'%");
        assertThat(translated(like("a_b%"))).isEqualTo("<not pushed>");
        assertThat(translated(like("a%b"))).isEqualTo("<not pushed>");
        assertThat(translated(like("ab"))).isEqualTo("<not pushed>");
        // ILIKE is a LIKE that ignores case: pushed as LIKE it would drop 'Abc' from ILIKE 'a%'
        assertThat(translated(rex.makeCall(org.apache.calcite.sql.fun.SqlLibraryOperators.ILIKE, column(1),
                rex.makeLiteral("ab%")))).isEqualTo("<not pushed>");
    }

    @Test
    void widenedColumnsArePushedButOtherExpressionsAreNot() {
        RexNode widened = rex.makeCast(types.createSqlType(SqlTypeName.DECIMAL, 12, 2), column(2));
        assertThat(translated(rex.makeCall(SqlStdOperatorTable.GREATER_THAN, widened,
                rex.makeExactLiteral(new BigDecimal("10.00"))))).isEqualTo("amount > 10.00");
        RexNode rescaled = rex.makeCast(types.createSqlType(SqlTypeName.DECIMAL, 12, 3), column(2));
        assertThat(translated(rex.makeCall(SqlStdOperatorTable.GREATER_THAN, rescaled,
                rex.makeExactLiteral(new BigDecimal("10.005"))))).isEqualTo("<not pushed>");
        RexNode plusOne = rex.makeCall(SqlStdOperatorTable.PLUS, column(0), rex.makeExactLiteral(BigDecimal.ONE));
        assertThat(translated(rex.makeCall(SqlStdOperatorTable.EQUALS, plusOne,
                rex.makeExactLiteral(BigDecimal.TEN)))).isEqualTo("<not pushed>");
        // TIMESTAMP_LTZ is pushed: Calcite would compare it in milliseconds (the executor works around
        // Fluss 0.9.1's predicates reading it as TIMESTAMP_NTZ)
        assertThat(translated(rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, column(3)))).isEqualTo("at IS NOT NULL");
        // an OR is pushed only whole
        assertThat(translated(rex.makeCall(SqlStdOperatorTable.OR, rex.makeCall(SqlStdOperatorTable.IS_NULL, column(0)),
                rex.makeCall(SqlStdOperatorTable.EQUALS, plusOne, rex.makeExactLiteral(BigDecimal.TEN)))))
                .isEqualTo("<not pushed>");
    }

    @Test
    void timestampLiteralsKeepEveryDigit() {
        JavaTypeFactoryImpl flussTypes = new JavaTypeFactoryImpl(FlussTypeSystem.INSTANCE);
        RexBuilder flussRex = new RexBuilder(flussTypes);
        RowType row = RowType.of(new org.apache.fluss.types.DataType[] {DataTypes.TIMESTAMP(6),
                DataTypes.TIMESTAMP_LTZ(6)}, new String[] {"ts", "ltz"});
        RelDataType sqlRow = SqlTypes.rowType(flussTypes, row);
        ConditionTranslator timestamps = new ConditionTranslator(flussRex, List.of(0, 1), row);
        RexNode ts = flussRex.makeInputRef(sqlRow.getFieldList().get(0).getType(), 0);
        RexNode micros = flussRex.makeTimestampLiteral(new TimestampString("2024-06-01 12:00:00.123456"), 6);
        assertThat(timestamps.translate(flussRex.makeCall(SqlStdOperatorTable.EQUALS, ts, micros))
                .map(PushedCondition::describe)).contains("ts = 2024-06-01 12:00:00.123456");
        // Calcite widens the column to compare it with a literal of more digits: still the column
        RexNode nanos = flussRex.makeTimestampLiteral(new TimestampString("2024-06-01 12:00:00.123456789"), 9);
        RexNode widened = flussRex.makeCast(flussTypes.createSqlType(SqlTypeName.TIMESTAMP, 9), ts);
        assertThat(timestamps.translate(flussRex.makeCall(SqlStdOperatorTable.LESS_THAN, widened, nanos))
                .map(PushedCondition::describe)).contains("ts < 2024-06-01 12:00:00.123456789");
        RexNode ltz = flussRex.makeInputRef(sqlRow.getFieldList().get(1).getType(), 1);
        RexNode ltzLiteral = flussRex.makeTimestampWithLocalTimeZoneLiteral(
                new TimestampString("2024-06-01 12:00:00.123456"), 6);
        assertThat(timestamps.translate(flussRex.makeCall(SqlStdOperatorTable.EQUALS, ltz, ltzLiteral))
                .map(PushedCondition::describe)).contains("ltz = 2024-06-01 12:00:00.123456");
    }

    private RexNode like(String pattern) {
        return rex.makeCall(SqlStdOperatorTable.LIKE, column(1), rex.makeLiteral(pattern));
    }

    @Test
    void aBooleanColumnAloneOrNegatedIsAnEquality() {
        RowType flags = RowType.of(new org.apache.fluss.types.DataType[] {DataTypes.INT(), DataTypes.BOOLEAN()},
                new String[] {"id", "flag"});
        RelDataType flagRow = SqlTypes.rowType(types, flags);
        ConditionTranslator onFlags = new ConditionTranslator(rex, List.of(0, 1), flags);
        RexNode flag = rex.makeInputRef(flagRow.getFieldList().get(1).getType(), 1);
        RexNode id = rex.makeInputRef(flagRow.getFieldList().get(0).getType(), 0);
        assertThat(onFlags.translate(flag).map(PushedCondition::describe)).contains("flag = true");
        assertThat(onFlags.translate(rex.makeCall(SqlStdOperatorTable.NOT, flag)).map(PushedCondition::describe))
                .contains("flag = false");
        assertThat(onFlags.translate(rex.makeCall(SqlStdOperatorTable.IS_TRUE, flag)).map(PushedCondition::describe))
                .contains("flag = true");
        assertThat(onFlags.translate(rex.makeCall(SqlStdOperatorTable.IS_FALSE, flag)).map(PushedCondition::describe))
                .contains("flag = false");
        // IS NOT TRUE holds for nulls too: not an equality
        assertThat(onFlags.translate(rex.makeCall(SqlStdOperatorTable.IS_NOT_TRUE, flag))).isEmpty();
        assertThat(onFlags.translate(id)).isEmpty();
    }
}
