package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.Map;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.lake.committer.CommitterInitContext;
import org.apache.fluss.lake.committer.LakeCommitter;
import org.apache.fluss.lake.paimon.tiering.PaimonCatalogProvider;
import org.apache.fluss.lake.paimon.tiering.PaimonCommittable;
import org.apache.fluss.lake.paimon.tiering.PaimonLakeWriter;
import org.apache.fluss.lake.paimon.tiering.PaimonWriteResult;
import org.apache.fluss.lake.serializer.SimpleVersionedSerializer;
import org.apache.fluss.lake.writer.LakeTieringFactory;
import org.apache.fluss.lake.writer.LakeWriter;
import org.apache.fluss.lake.writer.WriterInitContext;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogLoader;
import org.apache.paimon.catalog.DelegateCatalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;

/**
 * Fluss's Paimon tiering (its committer, and its writer for primary-key tables) with write options
 * tuned for tiering, applied to the files the tiering writes and never stored in the table's
 * schema. Log tables are written by {@link PaimonAppendWriter}, Fluss's append writer without its
 * per-row option lookup.
 *
 * <p>The one option: Parquet dictionary encoding is off, unless the table sets
 * {@code parquet.enable.dictionary} (for all columns or one) itself. A tiered table always holds
 * the unique {@code __offset} column and usually other high-cardinality ones; building and then
 * dropping dictionaries for them was the largest cost of a tiering round (profiled: about a quarter
 * of the round's CPU). Readers see ordinary Parquet files either way; zstd (Paimon's default)
 * still compresses the plain pages.
 */
final class PaimonTieringFactory implements LakeTieringFactory<PaimonWriteResult, PaimonCommittable> {
    private static final long serialVersionUID = 1L;
    static final String DICTIONARY = "parquet.enable.dictionary";
    static final Map<String, String> WRITE_OPTIONS = Map.of(DICTIONARY, "false");

    private final LakeTieringFactory<PaimonWriteResult, PaimonCommittable> delegate;
    private final PaimonCatalogProvider catalogs;

    PaimonTieringFactory(LakeTieringFactory<PaimonWriteResult, PaimonCommittable> delegate,
            Configuration lakeOptions) {
        this.delegate = requireNonNull(delegate, "delegate is null");
        this.catalogs = new TuningCatalogProvider(requireNonNull(lakeOptions, "lakeOptions is null"));
    }

    /** {@code factory} with tiering's write options when it is Paimon's, else {@code factory} itself. */
    @SuppressWarnings("unchecked")
    static LakeTieringFactory<?, ?> tuned(String format, LakeTieringFactory<?, ?> factory, Configuration lakeOptions) {
        if (!"paimon".equalsIgnoreCase(format)) {
            return factory;
        }
        return new PaimonTieringFactory((LakeTieringFactory<PaimonWriteResult, PaimonCommittable>) factory,
                lakeOptions);
    }

    @Override
    public LakeWriter<PaimonWriteResult> createLakeWriter(WriterInitContext context) throws IOException {
        return context.tableInfo().hasPrimaryKey() ? new PaimonLakeWriter(catalogs, context)
                : new PaimonAppendWriter(catalogs.get(), context);
    }

    @Override
    public SimpleVersionedSerializer<PaimonWriteResult> getWriteResultSerializer() {
        return delegate.getWriteResultSerializer();
    }

    @Override
    public LakeCommitter<PaimonWriteResult, PaimonCommittable> createLakeCommitter(CommitterInitContext context)
            throws IOException {
        return delegate.createLakeCommitter(context);
    }

    @Override
    public SimpleVersionedSerializer<PaimonCommittable> getCommittableSerializer() {
        return delegate.getCommittableSerializer();
    }

    /** Tables with {@link #WRITE_OPTIONS} added where the table does not set them. */
    static Table withWriteOptions(Table table) {
        if (!(table instanceof FileStoreTable fileStoreTable)) {
            return table;
        }
        boolean ownDictionarySetting = fileStoreTable.options().keySet().stream().anyMatch(k -> k.startsWith(DICTIONARY));
        return ownDictionarySetting ? table : fileStoreTable.copy(WRITE_OPTIONS);
    }

    /** The catalog Fluss's writer loads its table from, handing out tables with the write options. */
    private static final class TuningCatalogProvider extends PaimonCatalogProvider {
        private static final long serialVersionUID = 1L;

        TuningCatalogProvider(Configuration lakeOptions) {
            super(lakeOptions);
        }

        @Override
        public Catalog get() {
            return new DelegateCatalog(super.get()) {
                @Override
                public CatalogLoader catalogLoader() {
                    return wrapped.catalogLoader();
                }

                @Override
                public Table getTable(Identifier identifier) throws TableNotExistException {
                    return withWriteOptions(wrapped.getTable(identifier));
                }
            };
        }
    }
}
