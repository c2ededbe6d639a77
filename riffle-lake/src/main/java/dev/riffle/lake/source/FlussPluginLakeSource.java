package dev.riffle.lake.source;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.lake.config.LakeConfig;
import dev.riffle.core.reader.RowsReader;
import dev.riffle.core.reader.TableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.lake.lakestorage.LakeStorage;
import org.apache.fluss.lake.lakestorage.LakeStoragePluginSetUp;
import org.apache.fluss.lake.paimon.source.PaimonSplit;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.CloseableIterator;

/**
 * A {@link LakeSource} over Fluss's engine-independent lake plugin API
 * ({@code org.apache.fluss.lake.source}), so every lake format Fluss has a plugin for (Paimon in
 * 0.9) works. The plugin returns rows; they become Arrow here.
 *
 * <p>Filters the plugin accepts are applied row by row when it reads (Paimon's read executes its
 * filter), so they are reported exact; the rest are reported not applied.
 */
public final class FlussPluginLakeSource implements LakeSource {
    private final LakeStorage storage;
    private final TablePath table;
    private final RowType rowType;

    private FlussPluginLakeSource(LakeStorage storage, TablePath table, RowType rowType) {
        this.storage = requireNonNull(storage, "storage is null");
        this.table = requireNonNull(table, "table is null");
        this.rowType = requireNonNull(rowType, "rowType is null");
    }

    /** The lake storage of {@code lake} (the plugin loaded and configured once; reused for every table). */
    public static LakeStorage storage(LakeConfig lake) {
        return LakeStoragePluginSetUp.fromDataLakeFormat(lake.format(), null)
                .createLakeStorage(Configuration.fromMap(lake.options()));
    }

    /** The lake side of one table in {@code storage}. */
    public static FlussPluginLakeSource over(LakeStorage storage, TablePath table, RowType rowType) {
        return new FlussPluginLakeSource(storage, table, rowType);
    }

    /**
     * @param format the lake format ({@code paimon})
     * @param options the format's catalog options ({@code metastore}, {@code warehouse}, ...)
     * @param rowType the Fluss table's row type
     */
    public static FlussPluginLakeSource create(String format, Map<String, String> options, TablePath table,
            RowType rowType) {
        return over(storage(new LakeConfig(format, options)), table, rowType);
    }

    @Override
    public LakeScan plan(long snapshotId, int[] projection, List<Predicate> filters) throws IOException {
        @SuppressWarnings("unchecked")
        org.apache.fluss.lake.source.LakeSource<org.apache.fluss.lake.source.LakeSplit> source =
                (org.apache.fluss.lake.source.LakeSource<org.apache.fluss.lake.source.LakeSplit>)
                        storage.createLakeSource(table);
        int[][] paths = new int[projection.length][];
        for (int i = 0; i < projection.length; i++) {
            paths[i] = new int[] {projection[i]};
        }
        source.withProject(paths);
        PushedFilters pushed = PushedFilters.none(filters);
        if (!filters.isEmpty()) {
            var result = source.withFilters(filters);
            pushed = new PushedFilters(result.acceptedPredicates(), List.of(), result.remainingPredicates());
        }
        List<LakeSplit> splits = new ArrayList<>();
        for (org.apache.fluss.lake.source.LakeSplit split : source.createPlanner(() -> snapshotId).plan()) {
            splits.add(new LakeSplit(split.bucket(), split.partition() == null ? List.of() : split.partition(), split,
                    files(split)));
        }
        RowType projected = rowType.project(projection);
        return new Scan(source, snapshotId, splits, pushed, projected);
    }

    /** Data files a split reads: Paimon's splits list theirs; another format's split counts as one. */
    private static int files(org.apache.fluss.lake.source.LakeSplit split) {
        return split instanceof PaimonSplit paimon ? paimon.dataSplit().dataFiles().size() : 1;
    }

    private record Scan(org.apache.fluss.lake.source.LakeSource<org.apache.fluss.lake.source.LakeSplit> source,
            long snapshotId, List<LakeSplit> splits, PushedFilters filters, RowType rowType) implements LakeScan {

        @Override
        public Schema schema() {
            return ArrowTypeMapping.toArrowSchema(rowType);
        }

        @Override
        public TableReader read(LakeSplit split, BufferAllocator allocator) throws IOException {
            org.apache.fluss.lake.source.LakeSplit handle = (org.apache.fluss.lake.source.LakeSplit) split.handle();
            CloseableIterator<LogRecord> records = source.createRecordReader(() -> handle).read();
            int[] columns = new int[rowType.getFieldCount()];
            Arrays.setAll(columns, i -> i);
            return new RowsReader(new RowsOf(records), rowType, columns, allocator);
        }
    }

    /** The rows of the plugin's records (a lake row may carry system columns after the table's; they are not read). */
    private record RowsOf(CloseableIterator<LogRecord> records) implements CloseableIterator<InternalRow> {
        @Override
        public boolean hasNext() {
            return records.hasNext();
        }

        @Override
        public InternalRow next() {
            return records.next().getRow();
        }

        @Override
        public void close() {
            records.close();
        }
    }
}
