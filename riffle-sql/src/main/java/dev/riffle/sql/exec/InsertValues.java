package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.fluss.metadata.TablePath;

/**
 * An {@code INSERT INTO db.t [(a, b, ...)] VALUES (?, ?, ...)} whose values are all parameters:
 * what drivers prepare to load many rows (JDBC batches, ADBC's bulk ingest through Flight SQL).
 * Bound with many parameter rows, such a statement is a write of those rows to the table, which a
 * surface can do straight from the rows as they arrive instead of planning one statement per row.
 *
 * <pre>{@code
 * InsertValues.match("INSERT INTO shop.orders (id, amount) VALUES (?, ?)")
 *     .ifPresent(insert -> ...);   // shop.orders, columns [id, amount], 2 parameters
 * }</pre>
 *
 * @param table the table written, named with its database
 * @param columns the listed columns, in order; empty when the statement lists none (all, in table order)
 * @param parameters how many {@code ?} the row has
 */
public record InsertValues(TablePath table, Optional<List<String>> columns, int parameters) {

    public InsertValues {
        requireNonNull(table, "table is null");
        requireNonNull(columns, "columns is null");
        columns = columns.map(List::copyOf);
    }

    /** The statement, when it is a one-row {@code INSERT ... VALUES} of parameters into a qualified table. */
    public static Optional<InsertValues> match(String sql) {
        SqlNode node;
        try {
            node = SqlParser.create(sql, SqlParser.config().withQuoting(Quoting.DOUBLE_QUOTE)
                    .withUnquotedCasing(Casing.UNCHANGED).withQuotedCasing(Casing.UNCHANGED).withCaseSensitive(true))
                    .parseStmt();
        } catch (SqlParseException | RuntimeException e) {
            return Optional.empty();
        }
        if (!(node instanceof SqlInsert insert) || !(insert.getTargetTable() instanceof SqlIdentifier target)
                || target.names.size() != 2) {
            return Optional.empty();
        }
        SqlNode source = insert.getSource();
        if (source.getKind() != SqlKind.VALUES || ((SqlBasicCall) source).operandCount() != 1) {
            return Optional.empty();
        }
        SqlNode row = ((SqlBasicCall) source).operand(0);
        if (row.getKind() != SqlKind.ROW) {
            return Optional.empty();
        }
        List<SqlNode> values = ((SqlBasicCall) row).getOperandList();
        for (SqlNode value : values) {
            if (!(value instanceof SqlDynamicParam)) {
                return Optional.empty();
            }
        }
        Optional<List<String>> columns = Optional.empty();
        SqlNodeList listed = insert.getTargetColumnList();
        if (listed != null && listed.size() > 0) {
            List<String> names = new ArrayList<>();
            for (SqlNode column : listed) {
                if (!(column instanceof SqlIdentifier identifier) || !identifier.isSimple()) {
                    return Optional.empty();
                }
                names.add(identifier.getSimple());
            }
            if (names.size() != values.size()) {
                return Optional.empty();
            }
            columns = Optional.of(names);
        }
        return Optional.of(new InsertValues(TablePath.of(target.names.get(0), target.names.get(1)), columns,
                values.size()));
    }
}
