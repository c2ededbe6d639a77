package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.fluss.lake.paimon.tiering.FlussRecordAsPaimonRow;
import org.apache.fluss.lake.paimon.tiering.PaimonWriteResult;
import org.apache.fluss.lake.writer.LakeTieringFactory;
import org.apache.fluss.lake.writer.LakeWriter;
import org.apache.fluss.lake.writer.WriterInitContext;
import org.apache.fluss.record.LogRecord;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.operation.AbstractFileStoreWrite;
import org.apache.paimon.operation.FileStoreWrite;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.TableWriteImpl;
import org.apache.paimon.utils.RecordWriter;

/**
 * Writes one bucket of a log table (no primary key) into its Paimon table: what Fluss's
 * {@code PaimonLakeWriter} with its {@code AppendOnlyWriter} does (same table copy, commit user,
 * row adapter, partition and bucket), with the Paimon bucket worked out once per writer instead of
 * once per row (Fluss looks it up in the table's options for every record: about 8% of a round),
 * and rows after the first handed to the bucket's file writer directly.
 * Records of Arrow-read spans are written through {@link ArrowPaimonRow}, straight from the batch's
 * vectors; others (Fluss's log scanner) through Fluss's row adapter.
 */
final class PaimonAppendWriter implements LakeWriter<PaimonWriteResult> {
    private final Catalog catalog;
    private final TableWriteImpl<InternalRow> tableWrite;
    private final FileStoreWrite<InternalRow> write;
    private final FlussRecordAsPaimonRow row;
    private final ArrowPaimonRow arrowRow;
    private final int bucket;
    private BinaryRow partition;
    /**
     * The bucket's file writer, once the first row made it: later rows go to it directly. Paimon's
     * {@code write(partition, bucket, row)} looks the writer up in two hash maps for every row
     * (hashing the partition's bytes each time), about 7% of a round; for an append table that
     * lookup is all it adds (its other step maintains dynamic-bucket indexes of primary-key tables).
     * Null until then, and when Paimon's write is not the kind that keeps its writers in reach.
     */
    private RecordWriter<InternalRow> bucketWriter;
    /** Whether the first row looked for {@link #bucketWriter} (once, whether it was there or not). */
    private boolean bucketWriterSought;

    @SuppressWarnings("unchecked")
    PaimonAppendWriter(Catalog catalog, WriterInitContext context) throws IOException {
        this.catalog = requireNonNull(catalog, "catalog is null");
        try {
            FileStoreTable table = ((FileStoreTable) catalog.getTable(Identifier.create(
                    context.tablePath().getDatabaseName(), context.tablePath().getTableName())))
                    .copy(Map.of(CoreOptions.WRITE_ONLY.key(),
                            String.valueOf(!context.tableInfo().getTableConfig().isDataLakeAutoCompaction())));
            if (!table.primaryKeys().isEmpty()) {
                throw new IllegalArgumentException("Paimon table " + context.tablePath()
                        + " has a primary key; it is written as a merge tree, not appended to");
            }
            this.tableWrite = (TableWriteImpl<InternalRow>) table.newWrite(
                    LakeTieringFactory.FLUSS_LAKE_TIERING_COMMIT_USER);
            this.write = tableWrite.getWrite();
            this.row = new FlussRecordAsPaimonRow(context.tableBucket().getBucket(), table.rowType());
            this.arrowRow = new ArrowPaimonRow(context.tableBucket().getBucket(), table.rowType());
            // A log table without a bucket key is bucket-unaware in Paimon: everything goes to bucket 0.
            this.bucket = table.store().bucketMode() == BucketMode.BUCKET_UNAWARE ? 0 : context.tableBucket().getBucket();
            // Unpartitioned: the empty partition; partitioned: taken from the first row.
            this.partition = context.partition() == null || table.partitionKeys().isEmpty() ? BinaryRow.EMPTY_ROW : null;
        } catch (Exception e) {
            try {
                catalog.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new IOException("Cannot open Paimon table " + context.tablePath() + " for tiering bucket "
                    + context.tableBucket().getBucket() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void write(LogRecord record) throws IOException {
        try {
            InternalRow paimonRow;
            if (record instanceof ArrowBatchRecord arrow) {
                paimonRow = arrowRow.at(arrow);
            } else {
                row.setFlussRecord(record);
                paimonRow = row;
            }
            if (bucketWriter != null) {
                bucketWriter.write(paimonRow);
                return;
            }
            if (partition == null) {
                partition = tableWrite.getPartition(paimonRow);
            }
            write.write(partition, bucket, paimonRow);
            if (!bucketWriterSought && write instanceof AbstractFileStoreWrite<InternalRow> writers) {
                bucketWriterSought = true;
                AbstractFileStoreWrite.WriterContainer<InternalRow> container = writers.writers().get(partition).get(bucket);
                // A dynamic-bucket index to maintain (not an append table's) would need Paimon's write for every row.
                if (container.dynamicBucketMaintainer == null) {
                    bucketWriter = container.writer;
                }
            }
        } catch (Exception e) {
            throw new IOException("Failed to write Fluss record to Paimon.", e);
        }
    }

    @Override
    public PaimonWriteResult complete() throws IOException {
        List<CommitMessage> messages;
        try {
            messages = tableWrite.prepareCommit();
        } catch (Exception e) {
            throw new IOException("Failed to complete Paimon write.", e);
        }
        if (messages.size() != 1) {
            throw new IllegalStateException("The size of CommitMessage must be 1, but got " + messages);
        }
        return new PaimonWriteResult(messages.get(0));
    }

    @Override
    public void close() throws IOException {
        try (catalog) {
            tableWrite.close();
        } catch (Exception e) {
            throw new IOException("Failed to close the Paimon writer.", e);
        }
    }
}
