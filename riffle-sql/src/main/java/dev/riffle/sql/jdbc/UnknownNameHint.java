package dev.riffle.sql.jdbc;

import dev.riffle.sql.catalog.FlussRootSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Completes Calcite's "Column 'x' not found" with the columns of the tables the statement reads,
 * and "Object 'x' not found" (an unknown database) with the databases there are, so a user sees
 * what exists instead of guessing. (Unknown tables are named with the database's tables by the
 * catalog itself.)
 */
final class UnknownNameHint {
    private static final Pattern NOT_FOUND = Pattern.compile("Column '([^']+)' not found in (any table|table '[^']+')");
    private static final Pattern NO_SCHEMA = Pattern.compile("Object '([^']+)' not found$");

    private UnknownNameHint() {}

    /** The hint for an error message, if the message is about an unknown column. */
    static Optional<String> forMessage(String message, String sql, CalcitePrepare.Context context) {
        if (message == null) {
            return Optional.empty();
        }
        if (!(context.getRootSchema().schema instanceof FlussRootSchema root)) {
            return Optional.empty();
        }
        if (NO_SCHEMA.matcher(message).find()) {
            try {
                return Optional.of("; databases: " + new java.util.TreeSet<>(root.session().databases()));
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }
        Matcher matcher = NOT_FOUND.matcher(message);
        if (!matcher.find()) {
            return Optional.empty();
        }
        try {
            Map<String, List<String>> columns = new LinkedHashMap<>();
            for (List<String> name : tablesRead(sql)) {
                List<String> path = name.size() >= 2 ? name.subList(name.size() - 2, name.size())
                        : context.getDefaultSchemaPath().isEmpty() ? List.of()
                        : List.of(context.getDefaultSchemaPath().get(0), name.get(0));
                if (path.size() != 2) {
                    continue;
                }
                String table = path.get(1).replaceFirst("\\$(log|lake|changelog)$", "");
                Optional<TableInfo> info = root.session().tableInfo(TablePath.of(path.get(0), table));
                info.ifPresent(i -> columns.put(String.join(".", path), i.getRowType().getFieldNames()));
            }
            if (columns.isEmpty()) {
                return Optional.empty();
            }
            List<String> parts = new ArrayList<>();
            columns.forEach((table, names) -> parts.add(table + "(" + String.join(", ", names) + ")"));
            return Optional.of("; columns: " + String.join("; ", parts)
                    + " (names are case-sensitive; quote them with \"...\")");
        } catch (RuntimeException e) {
            return Optional.empty(); // the hint is a courtesy; the original error stands
        }
    }

    /** The table names in every FROM clause of the statement. */
    private static List<List<String>> tablesRead(String sql) throws RuntimeException {
        SqlNode node;
        try {
            node = SqlParser.create(sql, SqlParser.config().withQuoting(Quoting.DOUBLE_QUOTE)
                    .withUnquotedCasing(Casing.UNCHANGED).withQuotedCasing(Casing.UNCHANGED).withCaseSensitive(true))
                    .parseStmt();
        } catch (Exception e) {
            return List.of();
        }
        List<List<String>> tables = new ArrayList<>();
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getFrom() != null) {
                    collect(select.getFrom(), tables);
                }
                return super.visit(call);
            }
        });
        return tables;
    }

    private static void collect(SqlNode from, List<List<String>> tables) {
        if (from instanceof SqlIdentifier identifier) {
            tables.add(identifier.names);
        } else if (from instanceof SqlJoin join) {
            collect(join.getLeft(), tables);
            collect(join.getRight(), tables);
        } else if (from instanceof SqlBasicCall call && call.getKind() == SqlKind.AS) {
            collect(call.operand(0), tables);
        }
    }
}
