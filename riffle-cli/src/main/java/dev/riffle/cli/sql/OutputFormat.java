package dev.riffle.cli.sql;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.values.AlignedTable;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.JsonValueSink;
import dev.riffle.core.values.TextValueSink;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * How {@code riffle sql -e} prints a statement's rows: {@code table} (aligned, with a header and
 * the count, as psql prints), {@code csv} (RFC 4180, a header line, NULL empty), {@code json} (a
 * JSON object per line) or {@code arrow} (an Arrow IPC stream). Values read as every other surface
 * writes them ({@link TextValueSink}, {@link JsonValueSink}).
 *
 * <pre>{@code
 * long rows = OutputFormat.parse("csv").write(reader, out, System.out);
 * }</pre>
 */
public enum OutputFormat {
    TABLE {
        @Override
        long write(TableReader reader, PrintWriter out, OutputStream binary) throws IOException {
            List<List<Optional<String>>> rows = new ArrayList<>();
            TextValueSink text = new TextValueSink();
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    List<ArrowValueReader> readers = readers(batch);
                    for (int row = 0; row < batch.rowCount(); row++) {
                        List<Optional<String>> cells = new ArrayList<>(readers.size());
                        for (ArrowValueReader cell : readers) {
                            cell.read(row, text);
                            cells.add(text.take());
                        }
                        rows.add(cells);
                    }
                }
            }
            out.print(AlignedTable.render(columns(reader), rows, "") + AlignedTable.rowCount(rows.size()) + "\n");
            return rows.size();
        }
    },
    CSV {
        @Override
        long write(TableReader reader, PrintWriter out, OutputStream binary) throws IOException {
            StringBuilder line = new StringBuilder();
            List<String> columns = columns(reader);
            for (int i = 0; i < columns.size(); i++) {
                csvCell(line.append(i == 0 ? "" : ","), columns.get(i));
            }
            out.print(line.append("\r\n"));
            TextValueSink text = new TextValueSink();
            long count = 0;
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    List<ArrowValueReader> readers = readers(batch);
                    for (int row = 0; row < batch.rowCount(); row++) {
                        line.setLength(0);
                        for (int i = 0; i < readers.size(); i++) {
                            readers.get(i).read(row, text);
                            Optional<String> cell = text.take();
                            line.append(i == 0 ? "" : ",");
                            cell.ifPresent(value -> csvCell(line, value));
                        }
                        out.print(line.append("\r\n"));
                        count++;
                    }
                }
            }
            return count;
        }
    },
    JSON {
        @Override
        long write(TableReader reader, PrintWriter out, OutputStream binary) throws IOException {
            long count = 0;
            JsonGenerator json = JSON_FACTORY.createGenerator(out);
            json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            JsonValueSink sink = new JsonValueSink(json);
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    List<ArrowValueReader> readers = readers(batch);
                    for (int row = 0; row < batch.rowCount(); row++) {
                        JsonValueSink.writeRow(json, readers, row, sink);
                        json.writeRaw('\n');
                        count++;
                    }
                }
            }
            json.flush();
            return count;
        }
    },
    ARROW {
        @Override
        long write(TableReader reader, PrintWriter out, OutputStream binary) throws IOException {
            out.flush();
            reader.writeArrowStream(binary);
            binary.flush();
            return reader.progress().rows();
        }
    };

    /** One object per line: no separator of Jackson's between root values, a newline after each. */
    private static final JsonFactory JSON_FACTORY = new JsonFactory().setRootValueSeparator(null);

    /**
     * Writes every row of {@code reader} and answers how many there were: as text to {@code out},
     * or as bytes to {@code binary} (the same stdout) for Arrow.
     */
    abstract long write(TableReader reader, PrintWriter out, OutputStream binary) throws IOException;

    /** The format named {@code name} ({@code table}, {@code csv}, {@code json}, {@code arrow}). */
    public static OutputFormat parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--format takes table, csv, json or arrow, got '" + name + "'");
        }
    }

    private static List<String> columns(TableReader reader) {
        return reader.schema().getFields().stream().map(Field::getName).toList();
    }

    private static List<ArrowValueReader> readers(ReadBatch batch) {
        List<ArrowValueReader> readers = new ArrayList<>();
        for (FieldVector vector : batch.root().getFieldVectors()) {
            readers.add(ArrowValueReader.of(vector));
        }
        return readers;
    }

    private static void csvCell(StringBuilder line, String value) {
        if (value.indexOf(',') < 0 && value.indexOf('"') < 0 && value.indexOf('\n') < 0 && value.indexOf('\r') < 0) {
            line.append(value);
            return;
        }
        line.append('"').append(value.replace("\"", "\"\"")).append('"');
    }
}
