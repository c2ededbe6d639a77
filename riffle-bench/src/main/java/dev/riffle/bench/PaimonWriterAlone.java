package dev.riffle.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.fluss.metadata.TablePath;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.data.variant.Variant;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.types.RowKind;

/**
 * P6's baseline: Paimon's own batch writer writing the rows {@link LakeBenchmark#append} gives a
 * log table straight from memory into a table identical to the one Fluss made for it (the same
 * schema with Fluss's {@code __bucket}, {@code __offset}, {@code __timestamp} columns, the same
 * options, write-only as tiering writes), one writer per bucket that tiering wrote, each the same
 * number of rows, over as many threads as tiering uses (one per core), then one commit. What tiering adds on top is reading the log and
 * committing to Fluss; this is what it cannot do faster than.
 *
 * <pre>{@code
 * double rowsPerSecond = PaimonWriterAlone.write(cluster.lakeCatalogOptions(), tieredPath, "alone_1", List.of(1_600_000, 1_300_000, 1_600_000), Map.of());
 * }</pre>
 *
 * <p>The rows are made before the clock starts (columns in arrays, the 10,000 distinct names as
 * Paimon strings), and the writers read them through one reused row view each: no value object per
 * row except the {@link Timestamp} Paimon's API asks for, which tiering makes too.
 */
final class PaimonWriterAlone {
    private PaimonWriterAlone() {}

    /**
     * Creates {@code bench.<name>} like the Paimon table of {@code tiered} and writes into it as
     * many rows per bucket as {@code bucketRows} says (the rows tiering wrote per Fluss bucket; Fluss's
     * sticky bucket assignment spreads a log table's appends unevenly), with {@code writeOptions} added
     * for this write only (as tiering adds its own).
     *
     * @return rows per second from the first row written to the commit done
     */
    static double write(Map<String, String> catalogOptions, TablePath tiered, String name, List<Integer> bucketRows,
            Map<String, String> writeOptions) throws Exception {
        int rows = bucketRows.stream().mapToInt(Integer::intValue).sum();
        Columns columns = Columns.of(rows);
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(catalogOptions)))) {
            FileStoreTable like = (FileStoreTable) catalog.getTable(
                    Identifier.create(tiered.getDatabaseName(), tiered.getTableName()));
            Identifier identifier = Identifier.create(tiered.getDatabaseName(), name);
            org.apache.paimon.schema.Schema schema = like.schema().toSchema();
            Map<String, String> options = new java.util.HashMap<>(schema.options());
            options.remove(CoreOptions.PATH.key()); // the catalog places the new table itself
            catalog.createTable(identifier, new org.apache.paimon.schema.Schema(schema.fields(), schema.partitionKeys(),
                    schema.primaryKeys(), options, schema.comment()), false);
            Map<String, String> dynamic = new java.util.HashMap<>(writeOptions);
            dynamic.put(CoreOptions.WRITE_ONLY.key(), "true");
            FileStoreTable table = ((FileStoreTable) catalog.getTable(identifier)).copy(dynamic);
            if (table.rowType().getFieldCount() != Columns.FIELDS) {
                throw new IllegalStateException("Expected the 5 benchmark columns and Fluss's 3, got " + table.rowType());
            }
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            int threads = Math.min(bucketRows.size(), Runtime.getRuntime().availableProcessors());
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            long started = System.nanoTime();
            try {
                List<Future<List<CommitMessage>>> writes = new ArrayList<>();
                int next = 0;
                for (int bucket = 0; bucket < bucketRows.size(); bucket++) {
                    int from = next;
                    int to = from + bucketRows.get(bucket);
                    next = to;
                    int b = bucket;
                    writes.add(pool.submit(() -> {
                        try (BatchTableWrite write = builder.newWrite()) {
                            ColumnsRow row = new ColumnsRow(columns, b, from);
                            for (int i = from; i < to; i++) {
                                write.write(row.at(i));
                            }
                            return write.prepareCommit();
                        }
                    }));
                }
                List<CommitMessage> messages = new ArrayList<>();
                for (Future<List<CommitMessage>> write : writes) {
                    messages.addAll(write.get());
                }
                try (BatchTableCommit commit = builder.newCommit()) {
                    commit.commit(messages);
                }
            } finally {
                pool.shutdownNow();
            }
            return rows / ((System.nanoTime() - started) / 1e9);
        }
    }

    /** The benchmark's rows as columns, built before the clock starts. */
    private record Columns(int[] ids, BinaryString[] names, long[] amounts, double[] prices, long[] millis,
            long commitMillis) {
        static final int FIELDS = 8;

        static Columns of(int rows) {
            long base = java.time.LocalDateTime.of(2024, 1, 1, 0, 0).toInstant(java.time.ZoneOffset.UTC).toEpochMilli();
            BinaryString[] names = new BinaryString[10_000];
            for (int i = 0; i < names.length; i++) {
                names[i] = BinaryString.fromString("customer-" + i);
            }
            int[] ids = new int[rows];
            long[] amounts = new long[rows];
            double[] prices = new double[rows];
            long[] millis = new long[rows];
            for (int i = 0; i < rows; i++) {
                ids[i] = i;
                amounts[i] = (long) i * 3;
                prices[i] = i * 0.25;
                millis[i] = base + i;
            }
            return new Columns(ids, names, amounts, prices, millis, System.currentTimeMillis());
        }
    }

    /**
     * Row {@code i} of {@link Columns} as Paimon sees it: id, name, amount, price, ts, then Fluss's
     * bucket, offset (counted from the writer's first row) and commit timestamp.
     */
    private static final class ColumnsRow implements InternalRow {
        private final Columns columns;
        private final int bucket;
        private final int firstRow;
        private int row;

        ColumnsRow(Columns columns, int bucket, int firstRow) {
            this.columns = columns;
            this.bucket = bucket;
            this.firstRow = firstRow;
        }

        ColumnsRow at(int row) {
            this.row = row;
            return this;
        }

        @Override
        public int getFieldCount() {
            return Columns.FIELDS;
        }

        @Override
        public RowKind getRowKind() {
            return RowKind.INSERT;
        }

        @Override
        public void setRowKind(RowKind kind) {
            throw new UnsupportedOperationException("read-only row");
        }

        @Override
        public boolean isNullAt(int pos) {
            return false;
        }

        @Override
        public int getInt(int pos) {
            return switch (pos) {
                case 0 -> columns.ids[row];
                case 5 -> bucket;
                default -> throw unexpected(pos, "INT");
            };
        }

        @Override
        public long getLong(int pos) {
            return switch (pos) {
                case 2 -> columns.amounts[row];
                case 6 -> row - firstRow;
                default -> throw unexpected(pos, "BIGINT");
            };
        }

        @Override
        public double getDouble(int pos) {
            if (pos != 3) {
                throw unexpected(pos, "DOUBLE");
            }
            return columns.prices[row];
        }

        @Override
        public BinaryString getString(int pos) {
            if (pos != 1) {
                throw unexpected(pos, "STRING");
            }
            return columns.names[row % columns.names.length];
        }

        @Override
        public Timestamp getTimestamp(int pos, int precision) {
            return switch (pos) {
                case 4 -> Timestamp.fromEpochMillis(columns.millis[row]);
                case 7 -> Timestamp.fromEpochMillis(columns.commitMillis);
                default -> throw unexpected(pos, "TIMESTAMP");
            };
        }

        @Override
        public boolean getBoolean(int pos) {
            throw unexpected(pos, "BOOLEAN");
        }

        @Override
        public byte getByte(int pos) {
            throw unexpected(pos, "TINYINT");
        }

        @Override
        public short getShort(int pos) {
            throw unexpected(pos, "SMALLINT");
        }

        @Override
        public float getFloat(int pos) {
            throw unexpected(pos, "FLOAT");
        }

        @Override
        public Decimal getDecimal(int pos, int precision, int scale) {
            throw unexpected(pos, "DECIMAL");
        }

        @Override
        public byte[] getBinary(int pos) {
            throw unexpected(pos, "BINARY");
        }

        @Override
        public Variant getVariant(int pos) {
            throw unexpected(pos, "VARIANT");
        }

        @Override
        public InternalArray getArray(int pos) {
            throw unexpected(pos, "ARRAY");
        }

        @Override
        public InternalMap getMap(int pos) {
            throw unexpected(pos, "MAP");
        }

        @Override
        public InternalRow getRow(int pos, int fields) {
            throw unexpected(pos, "ROW");
        }

        private static IllegalStateException unexpected(int pos, String type) {
            return new IllegalStateException("The benchmark table has no " + type + " column at position " + pos);
        }
    }
}
