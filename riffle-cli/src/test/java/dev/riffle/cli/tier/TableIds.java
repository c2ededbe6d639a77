package dev.riffle.cli.tier;

import dev.riffle.core.Riffle;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.arrow.vector.IntVector;
import org.apache.fluss.metadata.TablePath;

/** The INT {@code id} column of a table as one source reads it (the log, the lake), for comparing the two. */
public final class TableIds {
    private TableIds() {}

    public static List<Integer> read(Riffle riffle, TablePath path, UnaryOperator<ReadBuilder> source)
            throws Exception {
        List<Integer> ids = new ArrayList<>();
        try (TableReader reader = source.apply(riffle.table(path.toString()).read().columns("id")).createReader()) {
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    IntVector id = (IntVector) batch.root().getVector("id");
                    for (int i = 0; i < id.getValueCount(); i++) {
                        ids.add(id.get(i));
                    }
                }
            }
        }
        return ids;
    }
}
