package dev.riffle.cli.read;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.TextValueSink;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * CSV as RFC 4180 has it: a header line of column names, CRLF line ends, and fields quoted when
 * they hold a comma, a double quote or a line break (quotes doubled inside). Values look as
 * {@link TextValueSink} renders them (the text every Riffle surface gives a value).
 *
 * <p>A null is an empty field and an empty string is {@code ""}, so the two stay apart (the
 * convention of PostgreSQL's and DuckDB's CSV readers).
 */
public final class CsvRowWriter implements RowWriter {
    private static final String LINE_END = "\r\n";

    private final Writer out;
    private final Schema schema;
    private final TextValueSink text = new TextValueSink();

    public CsvRowWriter(Writer out, Schema schema) {
        this.out = requireNonNull(out, "out is null");
        this.schema = requireNonNull(schema, "schema is null");
    }

    @Override
    public void start() throws IOException {
        List<Field> fields = schema.getFields();
        for (int c = 0; c < fields.size(); c++) {
            if (c > 0) {
                out.write(',');
            }
            writeField(fields.get(c).getName());
        }
        out.write(LINE_END);
    }

    @Override
    public void write(VectorSchemaRoot rows) throws IOException {
        List<ArrowValueReader> columns = ArrowValueReader.ofColumns(rows.getFieldVectors());
        for (int row = 0; row < rows.getRowCount(); row++) {
            for (int c = 0; c < columns.size(); c++) {
                if (c > 0) {
                    out.write(',');
                }
                columns.get(c).read(row, text);
                Optional<String> value = text.take();
                if (value.isPresent()) {
                    writeField(value.get());
                }
            }
            out.write(LINE_END);
        }
    }

    @Override
    public void finish() throws IOException {
        out.flush();
    }

    @Override
    public void close() {
        // nothing held: the output belongs to the caller
    }

    private void writeField(String value) throws IOException {
        if (!value.isEmpty() && !needsQuotes(value)) {
            out.write(value);
            return;
        }
        out.write('"');
        out.write(value.replace("\"", "\"\""));
        out.write('"');
    }

    private static boolean needsQuotes(String value) {
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch == ',' || ch == '"' || ch == '\n' || ch == '\r') {
                return true;
            }
        }
        return false;
    }
}
