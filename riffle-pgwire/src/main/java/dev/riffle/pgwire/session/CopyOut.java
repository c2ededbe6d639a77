package dev.riffle.pgwire.session;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.pgwire.copy.CopyLineWriter;
import dev.riffle.pgwire.copy.CopyOptions;
import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.types.PgTextSink;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.sql.SqlResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * COPY TO STDOUT of one read: CopyOutResponse, then one CopyData per row (its values in
 * PostgreSQL's text form, by {@link PgTextSink}, laid out by {@link CopyLineWriter}) as the read
 * produces its batches, then CopyDone. Rows wait for a slow client as DataRows do; a cancel or the
 * scan timeout stops the copy between rows. Closing it frees the read and the request.
 *
 * <pre>{@code
 * try (CopyOut copy = new CopyOut(request, rows, options)) {
 *     long sent = copy.send(out, cancellation);   // then CommandComplete "COPY " + sent
 * }
 * }</pre>
 */
final class CopyOut implements AutoCloseable {
    private final RequestContext request;
    private final SqlResult.Rows rows;
    private final CopyLineWriter writer;
    private final CopyOptions options;

    CopyOut(RequestContext request, SqlResult.Rows rows, CopyOptions options) {
        this.request = requireNonNull(request, "request is null");
        this.rows = requireNonNull(rows, "rows is null");
        this.options = requireNonNull(options, "options is null");
        this.writer = new CopyLineWriter(options);
    }

    /** Sends the whole copy; returns how many rows it sent. */
    long send(Outbound out, Cancellation cancellation) {
        TableReader reader = rows.reader();
        List<Field> fields = reader.schema().getFields();
        out.send(new BackendMessage.CopyOutResponse(fields.size()));
        if (options.header()) {
            out.send(data(writer.header(fields.stream().map(Field::getName).toList())));
        }
        PgTextSink text = new PgTextSink();
        long sent = 0;
        while (true) {
            cancellation.checkRequested(); // the read itself stops at its deadline
            if (!reader.hasNext()) {
                break;
            }
            try (ReadBatch batch = reader.next()) {
                List<ArrowValueReader> columns = ArrowValueReader.ofColumns(batch.root().getFieldVectors());
                List<Optional<String>> cells = new ArrayList<>(columns.size());
                for (int row = 0; row < batch.rowCount(); row++) {
                    cells.clear();
                    for (ArrowValueReader column : columns) {
                        column.read(row, text);
                        cells.add(text.take());
                    }
                    out.sendRow(data(writer.line(cells)), cancellation::requested);
                    sent++;
                    if ((sent & 1023) == 0) {
                        cancellation.checkRequested(); // the read itself stops at its deadline
                    }
                }
            }
        }
        out.send(new BackendMessage.CopyDone());
        return sent;
    }

    private static BackendMessage.CopyData data(String line) {
        return new BackendMessage.CopyData(line.getBytes(UTF_8));
    }

    @Override
    public void close() {
        try {
            rows.close();
        } finally {
            request.close();
        }
    }
}
