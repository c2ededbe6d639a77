package dev.riffle.pgwire.session;

import dev.riffle.pgwire.types.PgBinaryColumn;
import dev.riffle.pgwire.types.PgColumnWriter;
import dev.riffle.pgwire.types.PgTextColumn;
import dev.riffle.pgwire.types.RowBytes;
import java.util.List;
import org.apache.arrow.vector.FieldVector;

/**
 * The DataRow bodies of one Arrow batch: the column count, then each cell as its length and its
 * bytes (text or binary, as the client's result formats ask), or -1 for NULL, written in place.
 *
 * <pre>{@code
 * DataRowWriter rows = new DataRowWriter(batch.root().getFieldVectors(), statement.columns(), formats);
 * out.sendRow((byte) 'D', rows, row, cancellation::requested);
 * }</pre>
 */
final class DataRowWriter implements Outbound.RowBody {
    private final PgColumnWriter[] cells;

    /** {@code formats}: each column's result format, 1 binary, else text (a column without one: text). */
    DataRowWriter(List<FieldVector> vectors, List<Prepared.Column> columns, List<Short> formats) {
        this.cells = new PgColumnWriter[vectors.size()];
        for (int c = 0; c < cells.length; c++) {
            boolean binary = c < formats.size() && formats.get(c) == 1;
            cells[c] = binary ? PgBinaryColumn.of(vectors.get(c), columns.get(c).type().scalar())
                    : PgTextColumn.of(vectors.get(c));
        }
    }

    @Override
    public void write(int row, RowBytes out) {
        out.writeShort(cells.length);
        for (PgColumnWriter cell : cells) {
            int lengthAt = out.length();
            out.writeInt(0);
            boolean present = cell.write(row, out);
            out.setInt(lengthAt, present ? out.length() - lengthAt - 4 : -1);
        }
    }
}
