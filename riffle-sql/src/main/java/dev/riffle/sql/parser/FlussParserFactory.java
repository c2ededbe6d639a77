package dev.riffle.sql.parser;

import dev.riffle.sql.catalog.FlussDdlExecutor;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;

/**
 * The parser factory of {@code jdbc:riffle:} connections (Calcite's {@code parserFactory}
 * property names {@link #FACTORY}): Calcite's parser plus Riffle's DDL, run by
 * {@link FlussDdlExecutor}.
 */
public final class FlussParserFactory implements SqlParserImplFactory {
    /** What the {@code parserFactory} connection property points at ({@code FlussParserFactory#FACTORY}). */
    public static final FlussParserFactory FACTORY = new FlussParserFactory();

    private FlussParserFactory() {}

    @Override
    public SqlAbstractParserImpl getParser(Reader reader) {
        return new FlussSqlParser(statement(reader));
    }

    /**
     * The whole statement Calcite hands a parser factory as a reader: Riffle's parsers look at its
     * text (DDL first) before Calcite's grammar does.
     */
    public static String statement(Reader reader) {
        StringBuilder sql = new StringBuilder();
        char[] buffer = new char[4096];
        try {
            for (int read; (read = reader.read(buffer)) >= 0; ) {
                sql.append(buffer, 0, read);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the SQL statement", e);
        }
        return sql.toString();
    }

    @Override
    public DdlExecutor getDdlExecutor() {
        return FlussDdlExecutor.INSTANCE;
    }
}
