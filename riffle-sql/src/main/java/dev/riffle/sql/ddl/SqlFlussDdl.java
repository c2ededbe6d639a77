package dev.riffle.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A {@link DdlStatement} as Calcite's parse tree node: its kind is DDL, so Calcite hands it to
 * {@code FlussDdlExecutor} instead of validating and planning it.
 */
public final class SqlFlussDdl extends SqlDdl {
    private static final SqlOperator CREATE_DATABASE = new SqlSpecialOperator("CREATE DATABASE", SqlKind.CREATE_SCHEMA);
    private static final SqlOperator DROP_DATABASE = new SqlSpecialOperator("DROP DATABASE", SqlKind.DROP_SCHEMA);
    private static final SqlOperator CREATE_TABLE = new SqlSpecialOperator("CREATE TABLE", SqlKind.CREATE_TABLE);
    private static final SqlOperator DROP_TABLE = new SqlSpecialOperator("DROP TABLE", SqlKind.DROP_TABLE);
    private static final SqlOperator ALTER_TABLE = new SqlSpecialOperator("ALTER TABLE", SqlKind.ALTER_TABLE);
    private static final SqlOperator CREATE_INDEX = new SqlSpecialOperator("CREATE INDEX", SqlKind.CREATE_INDEX);
    private static final SqlOperator DROP_INDEX = new SqlSpecialOperator("DROP INDEX", SqlKind.DROP_INDEX);

    private final DdlStatement statement;
    private final String sql;

    public SqlFlussDdl(DdlStatement statement, String sql) {
        super(operator(statement), SqlParserPos.ZERO);
        this.statement = requireNonNull(statement, "statement is null");
        this.sql = requireNonNull(sql, "sql is null");
    }

    private static SqlOperator operator(DdlStatement statement) {
        requireNonNull(statement, "statement is null");
        if (statement instanceof DdlStatement.CreateDatabase) {
            return CREATE_DATABASE;
        }
        if (statement instanceof DdlStatement.DropDatabase) {
            return DROP_DATABASE;
        }
        if (statement instanceof DdlStatement.AlterTable) {
            return ALTER_TABLE;
        }
        if (statement instanceof DdlStatement.CreateIndex) {
            return CREATE_INDEX;
        }
        if (statement instanceof DdlStatement.DropIndex) {
            return DROP_INDEX;
        }
        return statement instanceof DdlStatement.CreateTable ? CREATE_TABLE : DROP_TABLE;
    }

    public DdlStatement statement() {
        return statement;
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of();
    }

    @Override
    public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
        writer.print(sql.strip());
    }
}
