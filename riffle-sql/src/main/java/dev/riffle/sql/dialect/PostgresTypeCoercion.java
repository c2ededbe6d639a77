package dev.riffle.sql.dialect;

import java.util.Locale;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit casts, plus PostgreSQL's reading of a string compared with a boolean (its
 * spellings of true and false: {@code 't'}, {@code 'f'}, {@code 'yes'}, {@code 'off'}, {@code '1'},
 * ...; tools write {@code ix.indisprimary = 'f'}) or with a timestamp (the ISO forms of
 * {@link PostgresDateTimes}: Grafana writes {@code at BETWEEN '2017-04-21T05:01:17Z' AND ...}),
 * which Calcite's casts refuse.
 */
public final class PostgresTypeCoercion extends TypeCoercionImpl {
    public PostgresTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
        super(typeFactory, validator);
    }

    @Override
    public boolean binaryComparisonCoercion(SqlCallBinding binding) {
        boolean changed = false;
        SqlCall call = binding.getCall();
        if (call.operandCount() == 2) {
            for (int i = 0; i < 2; i++) {
                RelDataType other = binding.getOperandType(1 - i);
                SqlTypeName otherType = other.getSqlTypeName();
                if ((otherType == SqlTypeName.TIMESTAMP || otherType == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
                        && call.operand(i) instanceof SqlCharStringLiteral text) {
                    // at >= '2017-04-21T05:01:17Z' (Grafana's time filter): the instant PostgreSQL reads
                    Optional<String> value = PostgresDateTimes.timestamp(text.getValueAs(String.class),
                            otherType == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
                    if (value.isPresent()) {
                        SqlLiteral literal = SqlLiteral.createCharString(value.get(), text.getParserPosition());
                        call.setOperand(i, literal);
                        updateInferredType(literal, factory.createSqlType(SqlTypeName.VARCHAR));
                        changed = true;
                    }
                }
                if (other.getSqlTypeName() == SqlTypeName.BOOLEAN && call.operand(i) instanceof SqlCharStringLiteral text) {
                    Optional<Boolean> value = bool(text.getValueAs(String.class));
                    if (value.isPresent()) {
                        SqlLiteral literal = SqlLiteral.createBoolean(value.get(), text.getParserPosition());
                        call.setOperand(i, literal);
                        updateInferredType(literal, factory.createSqlType(SqlTypeName.BOOLEAN));
                        changed = true;
                    }
                }
            }
        }
        return super.binaryComparisonCoercion(binding) || changed;
    }

    /** PostgreSQL's boolean input: any unique prefix of true/false/yes/no, on/off, 1/0, any case, blanks around. */
    static Optional<Boolean> bool(String text) {
        String value = text.strip().toLowerCase(Locale.ROOT);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        if ("true".startsWith(value) || "yes".startsWith(value) || value.equals("on") || value.equals("1")) {
            return Optional.of(true);
        }
        if ("false".startsWith(value) || "no".startsWith(value) || value.equals("off") || value.equals("0")) {
            return Optional.of(false);
        }
        return Optional.empty();
    }
}
