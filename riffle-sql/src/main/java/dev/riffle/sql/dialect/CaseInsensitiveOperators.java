package dev.riffle.sql.dialect;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlNameMatchers;

/**
 * Calcite's built-in and library functions, found whatever the case a statement writes their names
 * in. The PostgreSQL dialect folds unquoted names to lower case and matches the names of tables
 * and columns exactly, and Calcite would then match {@code split_part} against its
 * {@code SPLIT_PART} exactly too; PostgreSQL's functions are found regardless of case.
 *
 * <pre>{@code
 * SqlOperatorTable functions = new CaseInsensitiveOperators(config.fun(SqlOperatorTable.class, SqlStdOperatorTable.instance()));
 * }</pre>
 */
public final class CaseInsensitiveOperators implements SqlOperatorTable {
    private static final SqlNameMatcher ANY_CASE = SqlNameMatchers.withCaseSensitive(false);

    private final SqlOperatorTable operators;

    public CaseInsensitiveOperators(SqlOperatorTable operators) {
        this.operators = requireNonNull(operators, "operators is null");
    }

    @Override
    public void lookupOperatorOverloads(SqlIdentifier name, SqlFunctionCategory category, SqlSyntax syntax,
            List<SqlOperator> found, SqlNameMatcher nameMatcher) {
        operators.lookupOperatorOverloads(name, category, syntax, found, ANY_CASE);
    }

    @Override
    public List<SqlOperator> getOperatorList() {
        return operators.getOperatorList();
    }
}
