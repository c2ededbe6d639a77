package dev.riffle.pgwire.session;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.pgwire.copy.CopyLineWriter;
import dev.riffle.pgwire.copy.CopyOptions;
import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.types.PgTextColumn;
import dev.riffle.pgwire.types.RowBytes;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.sql.SqlResult;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * COPY TO STDOUT of one read: CopyOutResponse, then one CopyData per row (its values in
 * PostgreSQL's text form, by {@link PgTextColumn}, laid out by {@link CopyLineWriter}) as the read
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
    private static final byte COPY_DATA = 'd';
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
            out.send(new BackendMessage.CopyData(
                    writer.header(fields.stream().map(Field::getName).toList()).getBytes(UTF_8)));
        }
        long sent = 0;
        while (true) {
            cancellation.checkRequested(); // the read itself stops at its deadline
            if (!reader.hasNext()) {
                break;
            }
            try (ReadBatch batch = reader.next()) {
                Lines lines = new Lines(batch.root().getFieldVectors(), writer);
                for (int row = 0; row < batch.rowCount(); row++) {
                    out.sendRow(COPY_DATA, lines, row, cancellation::requested);
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

    /** One batch's rows as COPY lines, each the body of its CopyData, written in place. */
    private static final class Lines implements Outbound.RowBody {
        private final PgTextColumn[] cells;
        private final CopyLineWriter writer;

        Lines(List<FieldVector> vectors, CopyLineWriter writer) {
            this.cells = vectors.stream().map(PgTextColumn::of).toArray(PgTextColumn[]::new);
            this.writer = writer;
        }

        @Override
        public void write(int row, RowBytes out) {
            for (int c = 0; c < cells.length; c++) {
                if (c > 0) {
                    writer.delimiter(out);
                }
                int start = out.length();
                if (cells[c].write(row, out)) {
                    writer.endCell(out, start, cells[c].number());
                } else {
                    writer.nullCell(out);
                }
            }
            writer.endLine(out);
        }
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
