package dev.riffle.lake;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.fluss.metadata.TablePath;

/** Test-side reads of the Paimon warehouse, straight through Paimon's own API. */
public final class LakeTables {
    private LakeTables() {}

    /** Every row of the table's latest Paimon snapshot, mapped; empty if the table has no snapshot yet. */
    public static <T> List<T> rows(Map<String, String> catalogOptions, TablePath path, Function<InternalRow, T> mapper)
            throws Exception {
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(catalogOptions)))) {
            Table table = catalog.getTable(Identifier.create(path.getDatabaseName(), path.getTableName()));
            ReadBuilder read = table.newReadBuilder();
            List<T> rows = new ArrayList<>();
            try (RecordReader<InternalRow> reader = read.newRead().createReader(read.newScan().plan())) {
                reader.forEachRemaining(row -> rows.add(mapper.apply(row)));
            }
            return rows;
        }
    }
}
