package dev.riffle.bench;

import dev.riffle.core.Riffle;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.scan.LogBatch;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Riffle's side: a {@link BoundedLogReader} to the latest offsets, touching every value of every
 * batch (the same checksum as the baseline), so the comparison includes using the data.
 */
final class RiffleRead {
    private RiffleRead() {}

    /** Times everything from looking up the table to the last row; the connection is set up before. */
    static Measurement read(Riffle riffle, String table, Optional<List<String>> columns) throws Exception {
        HeapPeak.reset();
        long started = System.nanoTime();
        long rows = 0;
        long checksum = 0;
        {
            ReadBuilder read = riffle.table(table).read().log();
            if (columns.isPresent()) {
                read = read.columns(columns.get());
            }
            try (BoundedLogReader reader = read.createLogReader()) {
                while (reader.hasNext()) {
                    try (LogBatch batch = reader.next()) {
                        checksum += columns.isPresent() ? twoColumns(batch.root()) : everyColumn(batch.root());
                        rows += batch.rowCount();
                    }
                }
            }
        }
        return new Measurement(rows, System.nanoTime() - started, checksum, HeapPeak.peakBytes());
    }

    private static long everyColumn(VectorSchemaRoot root) {
        IntVector id = (IntVector) root.getVector(0);
        VarCharVector name = (VarCharVector) root.getVector(1);
        BigIntVector amount = (BigIntVector) root.getVector(2);
        Float8Vector price = (Float8Vector) root.getVector(3);
        TimeStampMilliVector ts = (TimeStampMilliVector) root.getVector(4);
        long sum = 0;
        for (int i = 0; i < root.getRowCount(); i++) {
            sum += id.get(i) + (name.getEndOffset(i) - name.getStartOffset(i)) + amount.get(i) + (long) price.get(i)
                    + ts.get(i);
        }
        return sum;
    }

    private static long twoColumns(VectorSchemaRoot root) {
        IntVector id = (IntVector) root.getVector(0);
        Float8Vector price = (Float8Vector) root.getVector(1);
        long sum = 0;
        for (int i = 0; i < root.getRowCount(); i++) {
            sum += id.get(i) + (long) price.get(i);
        }
        return sum;
    }
}
