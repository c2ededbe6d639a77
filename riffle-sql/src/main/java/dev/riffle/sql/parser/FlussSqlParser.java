package dev.riffle.sql.parser;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.ddl.DdlParser;
import dev.riffle.sql.ddl.DdlStatement;
import dev.riffle.sql.ddl.DdlSyntaxException;
import dev.riffle.sql.ddl.SqlFlussDdl;
import java.io.StringReader;
import java.util.Optional;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.impl.SqlParserImpl;

/**
 * Calcite's SQL parser, except that {@code CREATE} and {@code DROP} statements are parsed by
 * {@link DdlParser} (Flink SQL's DDL shape, which Fluss users write).
 */
final class FlussSqlParser extends SqlParserImpl {
    private final String sql;

    FlussSqlParser(String sql) {
        super(new StringReader(requireNonNull(sql, "sql is null")));
        this.sql = sql;
    }

    @Override
    public SqlNode parseSqlStmtEof() throws Exception {
        Optional<DdlStatement> ddl = DdlParser.parse(sql);
        if (ddl.isPresent()) {
            return new SqlFlussDdl(ddl.get(), sql);
        }
        return super.parseSqlStmtEof();
    }

    @Override
    public SqlParseException normalizeException(Throwable ex) {
        if (ex instanceof DdlSyntaxException syntax) {
            return new SqlParseException(syntax.getMessage(), SqlParserPos.ZERO, null, null, syntax);
        }
        return super.normalizeException(ex);
    }
}
