package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.write.TableWrite;
import dev.riffle.pgwire.copy.CopyFormatException;
import dev.riffle.pgwire.copy.CopyLineReader;
import dev.riffle.pgwire.copy.CopyOptions;
import dev.riffle.pgwire.copy.CopyRowDecoder;
import dev.riffle.pgwire.error.PgException;
import dev.riffle.server.session.RequestContext;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.row.GenericRow;

/**
 * One COPY FROM STDIN in progress: the client's CopyData is gathered (up to the server's
 * {@code maxBodyBytes}, the limit of an HTTP write body; past it the rest is discarded and the
 * copy fails with 54000), and at CopyDone every row is read and checked before the first one is
 * written, so a bad line writes nothing, as the HTTP gateway does with a write body. Then the rows
 * are appended (log table) or upserted (primary-key table) and Fluss's acknowledgement awaited.
 * Closing it frees the request.
 *
 * <pre>{@code
 * try (CopyIn copy = new CopyIn(request, table, decoder, options, 1_000_000)) {
 *     copy.data(chunk);
 *     long written = copy.finish(cancellation);   // CommandComplete "COPY " + written
 * }
 * }</pre>
 */
final class CopyIn implements AutoCloseable {
    private final RequestContext request;
    private final TableInfo table;
    private final CopyRowDecoder decoder;
    private final CopyOptions options;
    private final long maxBytes;
    private final int maxRows;
    private final ByteArrayOutputStream data = new ByteArrayOutputStream();
    private long received;

    /** @param maxRows the most rows one COPY may write */
    CopyIn(RequestContext request, TableInfo table, CopyRowDecoder decoder, CopyOptions options, int maxRows) {
        this.request = requireNonNull(request, "request is null");
        this.table = requireNonNull(table, "table is null");
        this.decoder = requireNonNull(decoder, "decoder is null");
        this.options = requireNonNull(options, "options is null");
        this.maxBytes = request.limits().maxBodyBytes();
        this.maxRows = maxRows;
    }

    int columns() {
        return decoder.columns().size();
    }

    /** A CopyData message's bytes. */
    void data(byte[] chunk) {
        received += chunk.length;
        if (received <= maxBytes) {
            data.write(chunk, 0, chunk.length);
        } else if (data.size() > 0) {
            data.reset(); // over the limit: the copy fails at CopyDone, and nothing more is kept
        }
    }

    /**
     * Reads, checks and writes every row.
     *
     * @return how many rows were written
     * @throws PgException for a bad line (22P02, 22P04, 23502), too much data (54000) or a cancel (57014); nothing is
     *     written then
     */
    long finish(Cancellation cancellation) {
        if (received > maxBytes) {
            throw new PgException("54000", "COPY FROM STDIN sent " + received + " bytes; this server takes at most "
                    + maxBytes + " bytes in one COPY (its maxBodyBytes): split the data into several COPYs."
                    + " Nothing was written");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new PgException("22021", "invalid byte sequence for encoding \"UTF8\" in the COPY data");
        }
        data.reset();
        List<GenericRow> rows = new ArrayList<>();
        CopyLineReader lines = new CopyLineReader(text, options);
        while (true) {
            CopyLineReader.Row line;
            try {
                if (!lines.hasNext()) {
                    break;
                }
                line = lines.next();
            } catch (CopyFormatException e) {
                throw new PgException("22P04", e.getMessage() + " (COPY " + table.getTablePath() + ")");
            }
            if (rows.size() >= maxRows) {
                throw new PgException("54000", "COPY FROM STDIN sent more than " + maxRows + " rows; this server"
                        + " writes at most " + maxRows + " rows in one COPY: split the data into several COPYs."
                        + " Nothing was written");
            }
            rows.add(decoder.decode(line));
            if ((rows.size() & 4095) == 0) {
                cancellation.checkRequested();
            }
        }
        cancellation.checkRequested();
        write(rows);
        return rows.size();
    }

    private void write(List<GenericRow> rows) {
        if (rows.isEmpty()) {
            return;
        }
        TableWrite write = request.session().handles().write(table).open();
        write.rows(rows);
        request.await(write.acknowledgements().all(), "Writing " + rows.size() + " COPY rows to " + table.getTablePath());
    }

    @Override
    public void close() {
        data.reset();
        request.close();
    }
}
