package dev.riffle.lake.source;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.core.types.RowArrowWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.lake.lakestorage.LakeStorage;
import org.apache.fluss.lake.lakestorage.LakeStoragePluginSetUp;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.record.LogRecord;
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
    private static final int BATCH_ROWS = 8192;

    private final LakeStorage storage;
    private final TablePath table;
    private final RowType rowType;

    private FlussPluginLakeSource(LakeStorage storage, TablePath table, RowType rowType) {
        this.storage = requireNonNull(storage, "storage is null");
        this.table = requireNonNull(table, "table is null");
        this.rowType = requireNonNull(rowType, "rowType is null");
    }

    /**
     * @param format the lake format ({@code paimon})
     * @param options the format's catalog options ({@code metastore}, {@code warehouse}, ...)
     * @param rowType the Fluss table's row type
     */
    public static FlussPluginLakeSource create(String format, Map<String, String> options, TablePath table,
            RowType rowType) {
        LakeStorage storage = LakeStoragePluginSetUp.fromDataLakeFormat(format, null)
                .createLakeStorage(Configuration.fromMap(options));
        return new FlussPluginLakeSource(storage, table, rowType);
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
            splits.add(new LakeSplit(split.bucket(), split.partition() == null ? List.of() : split.partition(), split));
        }
        RowType projected = rowType.project(projection);
        return new Scan(source, snapshotId, splits, pushed, projected);
    }

    private record Scan(org.apache.fluss.lake.source.LakeSource<org.apache.fluss.lake.source.LakeSplit> source,
            long snapshotId, List<LakeSplit> splits, PushedFilters filters, RowType rowType) implements LakeScan {

        @Override
        public Schema schema() {
            return ArrowTypeMapping.toArrowSchema(rowType);
        }

        @Override
        public LakeBatchReader read(LakeSplit split, BufferAllocator allocator) throws IOException {
            org.apache.fluss.lake.source.LakeSplit handle = (org.apache.fluss.lake.source.LakeSplit) split.handle();
            CloseableIterator<LogRecord> records = source.createRecordReader(() -> handle).read();
            return new RowsToArrow(records, RowArrowWriter.create(rowType, allocator));
        }
    }

    /** Cuts the plugin's rows into Arrow batches. */
    private static final class RowsToArrow implements LakeBatchReader {
        private final CloseableIterator<LogRecord> records;
        private final RowArrowWriter writer;

        RowsToArrow(CloseableIterator<LogRecord> records, RowArrowWriter writer) {
            this.records = records;
            this.writer = writer;
        }

        @Override
        public Optional<VectorSchemaRoot> next() {
            while (writer.rowCount() < BATCH_ROWS && records.hasNext()) {
                writer.write(records.next().getRow());
            }
            return writer.rowCount() == 0 ? Optional.empty() : Optional.of(writer.finish());
        }

        @Override
        public void close() throws IOException {
            try {
                records.close();
            } catch (Exception e) {
                throw new IOException(e);
            } finally {
                writer.close();
            }
        }
    }
}
