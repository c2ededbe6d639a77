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
import org.apache.fluss.lake.paimon.utils.FlussToPaimonPredicateConverter;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.ReadBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LakeSource} over Fluss's engine-independent lake plugin API
 * ({@code org.apache.fluss.lake.source}), so every lake format Fluss has a plugin for (Paimon in
 * 0.9) works. The plugin plans the splits of a snapshot.
 *
 * <p>How a split is read: a Paimon table in a columnar file format whose read columns are all
 * flat is read by Paimon's own reader ({@link PaimonColumnarReader}): the splits of an append
 * table (a Fluss log table), and those of a primary-key table whose files need no merging
 * (Paimon's raw-convertible splits, such as a bucket's single file after tiering), come as column
 * batches copied into Arrow column by column; a primary-key split whose files overlap comes as
 * the rows Paimon merged, copied one by one. The filters the plugin accepts then only prune files
 * and row groups, so they are reported inexact and the union read checks the rows. Every other
 * table (nested columns, other formats) is read through the plugin, which returns rows that
 * become Arrow here; the filters it accepts are applied row by row as it reads, so they are
 * reported exact. The rest are reported not applied.
 */
public final class FlussPluginLakeSource implements LakeSource {
    private static final Logger LOG = LoggerFactory.getLogger(FlussPluginLakeSource.class);

    private final LakeStorage storage;
    private final LakeConfig config;
    private final TablePath table;
    private final RowType rowType;

    private FlussPluginLakeSource(LakeStorage storage, LakeConfig config, TablePath table, RowType rowType) {
        this.storage = requireNonNull(storage, "storage is null");
        this.config = requireNonNull(config, "config is null");
        this.table = requireNonNull(table, "table is null");
        this.rowType = requireNonNull(rowType, "rowType is null");
    }

    /** The lake storage of {@code lake} (the plugin loaded and configured once; reused for every table). */
    public static LakeStorage storage(LakeConfig lake) {
        return LakeStoragePluginSetUp.fromDataLakeFormat(lake.format(), null)
                .createLakeStorage(Configuration.fromMap(lake.options()));
    }

    /** The lake side of one table in {@code storage}, the lake {@code config} names. */
    public static FlussPluginLakeSource over(LakeStorage storage, LakeConfig config, TablePath table,
            RowType rowType) {
        return new FlussPluginLakeSource(storage, config, table, rowType);
    }

    /**
     * @param format the lake format ({@code paimon})
     * @param options the format's catalog options ({@code metastore}, {@code warehouse}, ...)
     * @param rowType the Fluss table's row type
     */
    public static FlussPluginLakeSource create(String format, Map<String, String> options, TablePath table,
            RowType rowType) {
        LakeConfig config = new LakeConfig(format, options);
        return over(storage(config), config, table, rowType);
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
        RowType projected = rowType.project(projection);
        Optional<FileStoreTable> columnar = columnarTable(projected);
        PushedFilters pushed = PushedFilters.none(filters);
        Optional<org.apache.paimon.predicate.Predicate> pruning = Optional.empty();
        if (!filters.isEmpty()) {
            var result = source.withFilters(filters);
            if (columnar.isPresent()) {
                pushed = new PushedFilters(List.of(), result.acceptedPredicates(), result.remainingPredicates());
                pruning = pruning(columnar.get(), result.acceptedPredicates());
            } else {
                pushed = new PushedFilters(result.acceptedPredicates(), List.of(), result.remainingPredicates());
            }
        }
        List<LakeSplit> splits = new ArrayList<>();
        for (org.apache.fluss.lake.source.LakeSplit split : source.createPlanner(() -> snapshotId).plan()) {
            splits.add(new LakeSplit(split.bucket(), split.partition() == null ? List.of() : split.partition(), split,
                    files(split)));
        }
        return new Scan(source, snapshotId, splits, pushed, projected, columnar, projection.clone(), pruning);
    }

    /**
     * The Paimon table, when its splits are read by Paimon's own reader: Paimon, a columnar file
     * format, flat read columns. Otherwise (or when the table cannot be opened here, in which case
     * the plugin says why when it reads) the plugin reads them.
     */
    private Optional<FileStoreTable> columnarTable(RowType projected) {
        if (!config.format().equals("paimon") || projected.getFieldCount() == 0
                || !projected.getChildren().stream().allMatch(PaimonColumnCopier::supports)) {
            return Optional.empty();
        }
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(config.options())))) {
            FileStoreTable paimon = (FileStoreTable) catalog.getTable(
                    Identifier.create(table.getDatabaseName(), table.getTableName()));
            String format = paimon.coreOptions().fileFormatString();
            if (!(format.equals("parquet") || format.equals("orc"))) {
                return Optional.empty();
            }
            return Optional.of(paimon);
        } catch (Exception e) {
            LOG.debug("Reading {} through the lake plugin: cannot open it as a Paimon table here", table, e);
            return Optional.empty();
        }
    }

    /** The accepted filters as one Paimon predicate, for Paimon to skip row groups with. */
    private static Optional<org.apache.paimon.predicate.Predicate> pruning(FileStoreTable paimon,
            List<Predicate> accepted) {
        List<org.apache.paimon.predicate.Predicate> converted = new ArrayList<>();
        for (Predicate predicate : accepted) {
            FlussToPaimonPredicateConverter.convert(paimon.rowType(), predicate).ifPresent(converted::add);
        }
        return converted.isEmpty() ? Optional.empty() : Optional.of(PredicateBuilder.and(converted));
    }

    /** Data files a split reads: Paimon's splits list theirs; another format's split counts as one. */
    private static int files(org.apache.fluss.lake.source.LakeSplit split) {
        return split instanceof PaimonSplit paimon ? paimon.dataSplit().dataFiles().size() : 1;
    }

    private record Scan(org.apache.fluss.lake.source.LakeSource<org.apache.fluss.lake.source.LakeSplit> source,
            long snapshotId, List<LakeSplit> splits, PushedFilters filters, RowType rowType,
            Optional<FileStoreTable> columnar, int[] projection, Optional<org.apache.paimon.predicate.Predicate> pruning)
            implements LakeScan {

        @Override
        public Schema schema() {
            return ArrowTypeMapping.toArrowSchema(rowType);
        }

        @Override
        public TableReader read(LakeSplit split, BufferAllocator allocator) throws IOException {
            org.apache.fluss.lake.source.LakeSplit handle = (org.apache.fluss.lake.source.LakeSplit) split.handle();
            if (columnar.isPresent() && handle instanceof PaimonSplit paimon) {
                ReadBuilder read = columnar.get().newReadBuilder().withProjection(projection);
                if (pruning.isPresent()) {
                    read = read.withFilter(pruning.get());
                }
                return new PaimonColumnarReader(read.newRead().createReader(paimon.dataSplit()), rowType, allocator,
                        "bucket " + split.bucket() + (split.partition().isEmpty() ? "" : " of partition "
                                + split.partition()) + " of snapshot " + snapshotId);
            }
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
