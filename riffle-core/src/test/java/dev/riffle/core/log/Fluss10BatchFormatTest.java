package dev.riffle.core.log;

import static dev.riffle.core.log.Fluss10BatchWriter.Builder.CLIENT_LOG_TABLE;
import static dev.riffle.core.log.Fluss10BatchWriter.Builder.EXPLICIT_MAGIC;
import static dev.riffle.core.log.Fluss10BatchWriter.Builder.SERVER_CHANGELOG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.log.Fluss10BatchWriter.Builder;
import dev.riffle.core.log.Fluss10BatchWriter.Spec;
import dev.riffle.core.log.Fluss10BatchWriter.Written;
import dev.riffle.core.types.ArrowTypeMapping;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Batches written by the Fluss 1.0.0 client library, read by {@link LogRecordsParser} and
 * {@link ArrowBatchDecoder} value for value: every magic 1.0 writes, with and without statistics,
 * append-only and changelog, uncompressed and compressed. Rows are random (the seed is printed).
 */
class Fluss10BatchFormatTest {
    private static final long SEED = Long.getLong("riffle.test.seed", System.nanoTime());
    private static final long COMMIT_TIMESTAMP = 1_767_225_600_123L;

    private BufferAllocator allocator;

    @BeforeEach
    void allocator() {
        System.out.println("Fluss10BatchFormatTest seed: -Driffle.test.seed=" + SEED);
        allocator = new RootAllocator();
    }

    @AfterEach
    void noLeaks() {
        assertThat(allocator.getAllocatedMemory()).as("Arrow bytes still allocated").isZero();
        allocator.close();
    }

    /** Every way Fluss 1.0 writes an Arrow batch, and the magic it must come out with. */
    record Case(String name, Builder builder, byte magic, boolean changelog, Optional<String> statistics,
            int expectedMagic) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        List<Case> cases = List.of(
                new Case("1.0 client, log table, no statistics", CLIENT_LOG_TABLE, (byte) 0, false, Optional.empty(), 0),
                new Case("1.0 client, log table, statistics *", CLIENT_LOG_TABLE, (byte) 0, false, Optional.of("*"), 1),
                new Case("1.0 client, log table, statistics on some columns", CLIENT_LOG_TABLE, (byte) 0, false,
                        Optional.of(EveryType.SOME_STATISTICS_COLUMNS), 1),
                new Case("1.0 server, changelog", SERVER_CHANGELOG, (byte) 0, true, Optional.empty(), 0),
                new Case("magic 1 changelog, statistics *", EXPLICIT_MAGIC, (byte) 1, true, Optional.of("*"), 1),
                new Case("magic 1 changelog, no statistics", EXPLICIT_MAGIC, (byte) 1, true, Optional.empty(), 1),
                new Case("magic 1 append-only, no statistics", EXPLICIT_MAGIC, (byte) 1, false, Optional.empty(), 1),
                new Case("magic 2 changelog, statistics *", EXPLICIT_MAGIC, (byte) 2, true, Optional.of("*"), 2),
                new Case("magic 2 changelog, no statistics", EXPLICIT_MAGIC, (byte) 2, true, Optional.empty(), 2),
                new Case("magic 2 append-only, no statistics", EXPLICIT_MAGIC, (byte) 2, false, Optional.empty(), 2));
        return cases.stream().flatMap(c -> Stream.of("NONE", "LZ4_FRAME", "ZSTD").map(compression -> Arguments.of(c,
                compression)));
    }

    @Test
    void theWriterRunsOnFluss10NotOnTheTestClasspathsFluss091() throws Exception {
        Fluss10BatchWriter writer = Fluss10.writer();
        assertThat(writer.getClass().getClassLoader()).isNotSameAs(getClass().getClassLoader());
        assertThat(Path.of(new java.net.URI(writer.flussLocation())).toRealPath())
                .isEqualTo(Fluss10.jar().toRealPath());
        assertThat(writer.staticField("org.apache.fluss.record.LogRecordBatchFormat", "LOG_MAGIC_VALUE_V2"))
                .isEqualTo((byte) 2);
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void readsWhatFluss10WroteValueForValue(Case c, String compression) {
        Random random = new Random(SEED ^ (c.name() + compression).hashCode());
        int rows = 1 + random.nextInt(400); // several 64 KiB pages for the larger ones
        Spec spec = spec(random, c, compression, rows, 1_000 + random.nextInt(1_000_000));
        Written written = Fluss10.writer().write(spec);
        assertThat(written.magic()).as("the magic Fluss 1.0 chose").isEqualTo((byte) c.expectedMagic());
        assertThat(written.statisticsLength() > 0).as("statistics written").isEqualTo(c.statistics().isPresent());

        ByteBuffer records = ByteBuffer.wrap(written.bytes());
        List<LogBatchHeader> headers = LogRecordsParser.parse(records, LogBytesSource.AS_WRITTEN);

        assertThat(headers).hasSize(1);
        LogBatchHeader header = headers.get(0);
        assertHeaderMatches(header, written, spec, 0);
        assertStatisticsAndChangeTypes(records, header, spec);
        assertDecodesTo(records, header, spec.rows(), EveryType.ROW_TYPE);
    }

    @Test
    void readsOneResponseMixingEveryMagicAndEndingInAPartialBatch() {
        Random random = new Random(SEED);
        List<Case> kinds = cases().map(a -> (Case) a.get()[0]).distinct().toList();
        List<Spec> specs = new ArrayList<>();
        List<Written> written = new ArrayList<>();
        ByteArrayOutputStream response = new ByteArrayOutputStream();
        long offset = 500;
        for (Case kind : kinds) {
            int rows = 1 + random.nextInt(40);
            Spec spec = spec(random, kind, "ZSTD", rows, offset);
            Written batch = Fluss10.writer().write(spec);
            specs.add(spec);
            written.add(batch);
            response.writeBytes(batch.bytes());
            offset = batch.lastOffset() + 1;
        }
        byte[] complete = response.toByteArray();
        byte[] partial = written.get(0).bytes();
        // As a Netty response arrives: a direct buffer, the batches not at its start, a cut-off
        // batch at its end.
        ByteBuffer records = ByteBuffer.allocateDirect(7 + complete.length + partial.length / 2);
        records.position(7);
        records.put(complete).put(partial, 0, partial.length / 2);
        records.flip().position(7);

        List<LogBatchHeader> headers = LogRecordsParser.parse(records, LogBytesSource.AS_WRITTEN);

        assertThat(headers).hasSize(kinds.size());
        int position = 7;
        for (int i = 0; i < headers.size(); i++) {
            assertHeaderMatches(headers.get(i), written.get(i), specs.get(i), position);
            assertStatisticsAndChangeTypes(records, headers.get(i), specs.get(i));
            assertDecodesTo(records, headers.get(i), specs.get(i).rows(), EveryType.ROW_TYPE);
            position += written.get(i).bytes().length;
        }
    }

    @Test
    void readsWhatAFluss10ServerSendsForAProjectedFetch() {
        Random random = new Random(SEED + 1);
        List<Case> kinds = cases().map(a -> (Case) a.get()[0]).distinct().toList();
        int[] projected = EveryType.positions("i", "s", "ts9", "m", "r");
        for (String compression : List.of("NONE", "ZSTD")) {
            List<Spec> specs = new ArrayList<>();
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            long offset = 0;
            for (Case kind : kinds) {
                Spec spec = spec(random, kind, compression, 1 + random.nextInt(60), offset);
                Written batch = Fluss10.writer().write(spec);
                specs.add(spec);
                log.writeBytes(batch.bytes());
                offset = batch.lastOffset() + 1;
            }
            ByteBuffer records = ByteBuffer.wrap(Fluss10.writer().projectAsServer(log.toByteArray(), specs.get(0),
                    projected));

            // The server rewrote every batch but kept the writer's CRC: it cannot be checked.
            assertThatThrownBy(() -> LogRecordsParser.parse(records, LogBytesSource.AS_WRITTEN))
                    .isInstanceOf(CorruptLogException.class)
                    .hasMessageContaining("fails its CRC-32C check");
            List<LogBatchHeader> headers = LogRecordsParser.parse(records, LogBytesSource.SERVER_PROJECTED);

            assertThat(headers).hasSize(kinds.size());
            RowType projectedType = EveryType.ROW_TYPE.project(projected);
            for (int i = 0; i < headers.size(); i++) {
                LogBatchHeader header = headers.get(i);
                Spec spec = specs.get(i);
                assertThat(header.magic()).isEqualTo((byte) kinds.get(i).expectedMagic());
                assertThat(header.statisticsLength()).as("the server drops statistics when it projects").isZero();
                assertThat(header.recordCount()).isEqualTo(spec.rows().size());
                assertThat(header.appendOnly()).isEqualTo(spec.appendOnly());
                assertStatisticsAndChangeTypes(records, header, spec);
                List<List<Object>> expected = spec.rows().stream()
                        .map(row -> IntStream.of(projected).mapToObj(row::get).toList())
                        .toList();
                assertDecodesTo(records, header, expected, projectedType);
            }
        }
    }

    static Spec spec(Random random, Case c, String compression, int rows, long baseOffset) {
        return new Spec(EveryType.rowTypeJson(EveryType.ROW_TYPE), EveryType.randomRows(random, rows),
                c.changelog() ? EveryType.randomChangeTypes(random, rows) : List.of(), c.statistics(), compression,
                c.builder(), c.magic(), baseOffset, COMMIT_TIMESTAMP, 17);
    }

    private static void assertHeaderMatches(LogBatchHeader header, Written written, Spec spec, int position) {
        LogBatchLayout layout = LogBatchLayout.of(written.magic()).orElseThrow();
        assertThat(header.position()).isEqualTo(position);
        assertThat(header.sizeInBytes()).isEqualTo(written.bytes().length);
        assertThat(header.magic()).isEqualTo(written.magic());
        assertThat(header.baseOffset()).isEqualTo(spec.baseOffset()).isEqualTo(written.baseOffset());
        assertThat(header.lastOffset()).isEqualTo(written.lastOffset());
        assertThat(header.nextOffset()).isEqualTo(spec.baseOffset() + spec.rows().size());
        assertThat(header.commitTimestamp()).isEqualTo(written.commitTimestamp()).isEqualTo(COMMIT_TIMESTAMP);
        assertThat(header.schemaId()).isEqualTo(written.schemaId());
        assertThat(header.recordCount()).isEqualTo(written.recordCount()).isEqualTo(spec.rows().size());
        assertThat(header.appendOnly()).isEqualTo(spec.appendOnly());
        assertThat(header.statisticsPosition()).isEqualTo(position + layout.headerSize());
        assertThat(header.statisticsLength()).isEqualTo(written.statisticsLength());
        assertThat(header.changeTypesPosition()).isEqualTo(header.statisticsPosition() + written.statisticsLength());
        assertThat(header.arrowPosition() + header.arrowLength()).isEqualTo(position + written.bytes().length);
    }

    /** Statistics start with their format version (1) and column count; change types are one byte a row. */
    private static void assertStatisticsAndChangeTypes(ByteBuffer records, LogBatchHeader header, Spec spec) {
        ByteBuffer bytes = records.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        if (header.hasStatistics()) {
            assertThat(bytes.get(header.statisticsPosition())).as("statistics format version").isEqualTo((byte) 1);
            int columns = bytes.getShort(header.statisticsPosition() + 1);
            assertThat(columns).as("statistics columns").isEqualTo(spec.statisticsColumns().get().equals("*")
                    ? 25 // every column but BINARY, BYTES and the nested ones
                    : EveryType.SOME_STATISTICS_COLUMNS.split(",").length);
        }
        if (!header.appendOnly()) {
            List<String> changeTypes = new ArrayList<>();
            for (int i = 0; i < header.recordCount(); i++) {
                changeTypes.add(ChangeType.fromByteValue(bytes.get(header.changeTypesPosition() + i)).shortString());
            }
            assertThat(changeTypes).isEqualTo(spec.changeTypes());
        }
    }

    private void assertDecodesTo(ByteBuffer records, LogBatchHeader header, List<List<Object>> rows, RowType rowType) {
        ArrowBatchDecoder decoder = new ArrowBatchDecoder(allocator, ArrowTypeMapping.toArrowSchema(rowType));
        try (VectorSchemaRoot root = decoder.decode(records, header)) {
            assertThat(root.getRowCount()).isEqualTo(rows.size());
            List<List<Object>> actual = ArrowValues.rows(root, rowType);
            List<List<Object>> expected = ArrowValues.comparable(rows);
            for (int row = 0; row < rows.size(); row++) {
                assertThat(actual.get(row)).as("row %s of the batch at offset %s (magic %s)", row, header.baseOffset(),
                        header.magic()).isEqualTo(expected.get(row));
            }
        }
    }
}
