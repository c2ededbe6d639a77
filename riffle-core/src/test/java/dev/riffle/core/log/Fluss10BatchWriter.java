package dev.riffle.core.log;

import java.util.List;
import java.util.Optional;

/**
 * Writes log record batches with the Fluss 1.0.0 client library. Its implementation
 * ({@code fluss10/Fluss10BatchWriterImpl}) is compiled against the 1.0.0 jar and runs in a class
 * loader that sees that jar instead of the 0.9.1 one on the test classpath ({@link Fluss10}); this
 * interface and its nested types use only JDK types, because they are what both sides share.
 *
 * <p>Values cross as plain Java: Boolean, Byte, Short, Integer, Long, Float, Double, BigDecimal,
 * String (CHAR, STRING), byte[] (BINARY, BYTES), LocalDate, LocalTime, LocalDateTime (TIMESTAMP),
 * Instant (TIMESTAMP_LTZ), List (ARRAY, and ROW as its field values), Map (MAP).
 */
public interface Fluss10BatchWriter {

    /** One batch as a 1.0 client or server builds it, then stamped as a 1.0 tablet server appends it. */
    Written write(Spec spec);

    /**
     * What a 1.0 tablet server sends for a projected FetchLog request over {@code batches} (its
     * {@code FileLogProjection} run on a log file holding them).
     */
    byte[] projectAsServer(byte[] batches, Spec table, int[] projectedFields);

    /** Where the Fluss classes the writer uses come from, to prove it is not 0.9.1. */
    String flussLocation();

    /** Reads a static field (public or not) of a Fluss 1.0 class, to compare layouts against. */
    Object staticField(String className, String fieldName);

    /** Who builds the batch, each exactly as Fluss 1.0 does. */
    enum Builder {
        /**
         * The 1.0 client's {@code ArrowLogWriteBatch}, as its {@code RecordAccumulator} creates it
         * for a log table: append-only, magic 1 when the table sets {@code table.statistics.columns},
         * else magic 0.
         */
        CLIENT_LOG_TABLE,
        /**
         * {@code MemoryLogRecordsArrowBuilder.builder(schemaId, writer, output, false, null)}, the call
         * of the 1.0 tablet server's {@code ArrowWalBuilder} that writes a primary-key table's
         * changelog: magic 0, change types, no statistics.
         */
        SERVER_CHANGELOG,
        /**
         * 1.0's {@code @VisibleForTesting} builders that take a magic: the only way 1.0 writes magic 2,
         * and magic 1 with change types. Append-only batches get no statistics there.
         */
        EXPLICIT_MAGIC
    }

    /**
     * What to write.
     *
     * @param rowTypeJson the table's row type, serialized by Fluss's {@code DataTypeJsonSerde}
     * @param rows the rows, in plain Java values
     * @param changeTypes one short string ({@code +I -U +U -D}) per row, or none for an append-only batch
     * @param statisticsColumns the table's {@code table.statistics.columns}, if set
     * @param compression the table's {@code table.log.arrow.compression.type}: NONE, LZ4_FRAME or ZSTD
     * @param builder who builds the batch
     * @param magic the magic for {@link Builder#EXPLICIT_MAGIC}; ignored otherwise
     * @param baseOffset the base offset the server assigns
     * @param commitTimestamp the commit timestamp the server assigns
     * @param leaderEpoch the leader epoch the server assigns (magic 2 only)
     */
    record Spec(byte[] rowTypeJson, List<List<Object>> rows, List<String> changeTypes,
            Optional<String> statisticsColumns, String compression, Builder builder, byte magic, long baseOffset,
            long commitTimestamp, int leaderEpoch) {
        public Spec {
            rows = List.copyOf(rows.stream().map(java.util.Collections::unmodifiableList).toList());
            changeTypes = List.copyOf(changeTypes);
            if (!changeTypes.isEmpty() && changeTypes.size() != rows.size()) {
                throw new IllegalArgumentException(rows.size() + " rows but " + changeTypes.size() + " change types");
            }
        }

        public boolean appendOnly() {
            return changeTypes.isEmpty();
        }
    }

    /**
     * A written batch and what Fluss 1.0's own {@code DefaultLogRecordBatch} reads from it, after
     * its {@code ensureValid()} (CRC included) passed.
     */
    record Written(byte[] bytes, byte magic, long baseOffset, long lastOffset, long commitTimestamp, short schemaId,
            int recordCount, int statisticsLength, int leaderEpoch, long writerId, int batchSequence, long crc) {}
}
