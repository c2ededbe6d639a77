package dev.riffle.sql.parser;

import dev.riffle.sql.catalog.FlussDdlExecutor;
import dev.riffle.sql.ddl.DdlParser;
import dev.riffle.sql.ddl.DdlStatement;
import dev.riffle.sql.ddl.DdlSyntaxException;
import dev.riffle.sql.ddl.SqlFlussDdl;
import dev.riffle.sql.dialect.ColumnNames;
import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.dialect.PostgresCalls;
import dev.riffle.sql.dialect.PostgresSyntax;
import dev.riffle.sql.dialect.SetReturningCalls;
import java.io.Reader;
import java.io.StringReader;
import java.util.Optional;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;

/**
 * The parser of {@link Dialect#POSTGRESQL} connections: Riffle's DDL first ({@link DdlParser}, which
 * takes PostgreSQL's type names too), then Calcite's Babel parser over the statement as
 * {@link PostgresSyntax} writes PostgreSQL's spellings Babel lacks.
 */
public final class PostgresParserFactory implements SqlParserImplFactory {
    /** What the {@code parserFactory} connection property points at. */
    public static final PostgresParserFactory FACTORY = new PostgresParserFactory();

    private PostgresParserFactory() {}

    @Override
    public SqlAbstractParserImpl getParser(Reader reader) {
        return new Parser(FlussParserFactory.statement(reader));
    }

    @Override
    public DdlExecutor getDdlExecutor() {
        return FlussDdlExecutor.INSTANCE;
    }

    /** Babel's parser, after Riffle's DDL has had its look. */
    private static final class Parser extends SqlBabelParserImpl {
        private final String sql;

        Parser(String sql) {
            super(new StringReader(PostgresSyntax.normalize(sql)));
            this.sql = sql;
        }

        @Override
        public SqlNode parseSqlStmtEof() throws Exception {
            Optional<DdlStatement> ddl = DdlParser.parse(sql);
            if (ddl.isPresent()) {
                return new SqlFlussDdl(ddl.get(), sql);
            }
            // named as PostgreSQL names them before the calls are rewritten: date_trunc(...) stays
            // date_trunc, not the FLOOR it becomes
            return SetReturningCalls.rewrite(PostgresCalls.rewrite(ColumnNames.name(super.parseSqlStmtEof())));
        }

        @Override
        public SqlParseException normalizeException(Throwable ex) {
            if (ex instanceof DdlSyntaxException syntax) {
                return new SqlParseException(syntax.getMessage(), SqlParserPos.ZERO, null, null, syntax);
            }
            return super.normalizeException(ex);
        }
    }
}
