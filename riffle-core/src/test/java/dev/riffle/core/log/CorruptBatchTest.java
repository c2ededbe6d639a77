package dev.riffle.core.log;

import static dev.riffle.core.log.Fluss10BatchWriter.Builder.CLIENT_LOG_TABLE;
import static dev.riffle.core.log.Fluss10BatchWriter.Builder.EXPLICIT_MAGIC;
import static dev.riffle.core.log.Fluss10BatchWriter.Builder.SERVER_CHANGELOG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.riffle.core.log.Fluss10BatchFormatTest.Case;
import dev.riffle.core.log.Fluss10BatchWriter.Written;
import dev.riffle.core.types.ArrowTypeMapping;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One byte of a Fluss 1.0 batch changed, every byte in turn: Riffle must fail with a
 * {@link CorruptLogException} and never hand out a wrong batch. The CRC covers the schema id and
 * everything after it; the fields before it are checked as far as they can be, and the three a
 * server sets (base offset, commit timestamp, leader epoch) cannot be checked at all, by Fluss or
 * anyone: the test pins that down instead of skipping them.
 */
class CorruptBatchTest {
    private BufferAllocator allocator;

    @BeforeEach
    void allocator() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void noLeaks() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    static Stream<Case> batches() {
        return Stream.of(
                new Case("magic 0 log table", CLIENT_LOG_TABLE, (byte) 0, false, Optional.empty(), 0),
                new Case("magic 0 changelog", SERVER_CHANGELOG, (byte) 0, true, Optional.empty(), 0),
                new Case("magic 1 log table with statistics", CLIENT_LOG_TABLE, (byte) 0, false, Optional.of("*"), 1),
                new Case("magic 1 changelog with statistics", EXPLICIT_MAGIC, (byte) 1, true, Optional.of("*"), 1),
                new Case("magic 2 changelog with statistics", EXPLICIT_MAGIC, (byte) 2, true, Optional.of("*"), 2),
                new Case("magic 2 log table", EXPLICIT_MAGIC, (byte) 2, false, Optional.empty(), 2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("batches")
    void everyChangedByteFailsOrIsAFieldNoChecksumCovers(Case c) {
        Random random = new Random(c.name().hashCode());
        Written first = Fluss10.writer().write(Fluss10BatchFormatTest.spec(random, c, "LZ4_FRAME", 3, 1_000));
        Written second = Fluss10.writer().write(Fluss10BatchFormatTest.spec(random, c, "LZ4_FRAME", 3, 1_003));
        byte[] original = concat(first.bytes(), second.bytes());
        LogBatchHeader intact = LogRecordsParser.parse(ByteBuffer.wrap(original), LogBytesSource.AS_WRITTEN).get(0);
        LogBatchLayout layout = LogBatchLayout.of(first.magic()).orElseThrow();
        int crcCovered = 0;

        for (int i = 0; i < first.bytes().length; i++) {
            byte[] corrupted = original.clone();
            corrupted[i] ^= (byte) 0xA5;
            ByteBuffer records = ByteBuffer.wrap(corrupted);
            String where = "byte " + i + " of the " + c.name();
            if (i < LogBatchLayout.LENGTH_OFFSET) {
                // The base offset: set by the server after the CRC was computed.
                assertThat(LogRecordsParser.parse(records, LogBytesSource.AS_WRITTEN).get(0).baseOffset())
                        .as(where).isNotEqualTo(intact.baseOffset());
            } else if (i < LogBatchLayout.MAGIC_OFFSET) {
                // The length: a batch that now ends elsewhere fails its CRC; one that now ends past
                // the response looks cut off and is fetched again, never returned.
                Throwable failure = catchThrowable(() -> assertThat(
                        LogRecordsParser.parse(records, LogBytesSource.AS_WRITTEN)).as(where).isEmpty());
                if (failure != null) {
                    assertThat(failure).as(where).isInstanceOf(CorruptLogException.class);
                }
            } else if (i == LogBatchLayout.MAGIC_OFFSET) {
                assertThat(parseAndDecode(records)).as(where).isInstanceOf(CorruptLogException.class)
                        .hasMessageContaining("magic " + corrupted[i]);
            } else if (i < layout.crcOffset()) {
                // Commit timestamp, and the leader epoch of magic 2: set by the server, not covered.
                LogBatchHeader header = LogRecordsParser.parse(records, LogBytesSource.AS_WRITTEN).get(0);
                assertThat(header.baseOffset()).as(where).isEqualTo(intact.baseOffset());
                assertThat(header.recordCount()).as(where).isEqualTo(intact.recordCount());
            } else {
                assertThatThrownBy(() -> LogRecordsParser.parse(records, LogBytesSource.AS_WRITTEN)).as(where)
                        .isInstanceOf(CorruptLogException.class)
                        .hasMessageStartingWith("Log batch at byte 0 (base offset 1000, magic " + first.magic() + ")")
                        .hasMessageContaining("fails its CRC-32C check");
                crcCovered++;
            }
        }
        assertThat(crcCovered).isEqualTo(first.bytes().length - layout.crcOffset());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("batches")
    void aChangedMagicNeverReadsTheBatchWithTheWrongLayout(Case c) {
        Written written = Fluss10.writer().write(Fluss10BatchFormatTest.spec(new Random(7), c, "ZSTD", 5, 40));
        for (byte magic : new byte[] {0, 1, 2, 3, 9, -1}) {
            if (magic == written.magic()) {
                continue;
            }
            byte[] corrupted = written.bytes().clone();
            corrupted[LogBatchLayout.MAGIC_OFFSET] = magic;

            Throwable failure = parseAndDecode(ByteBuffer.wrap(corrupted));

            assertThat(failure).as("magic %s read as %s", written.magic(), magic)
                    .isInstanceOf(CorruptLogException.class)
                    .hasMessageContaining("magic " + magic)
                    .hasMessageContaining("byte 0")
                    .hasMessageContaining("base offset 40");
            if (magic > 2 || magic < 0) {
                assertThat(failure).hasMessage("Unsupported log batch format: magic " + magic + " at byte 0 (base offset"
                        + " 40). Riffle reads magic 0, and magic 1 and 2 as Fluss 1.0 writes them");
            }
        }
    }

    /** What parsing, then decoding, threw; null when both succeeded. */
    private Throwable parseAndDecode(ByteBuffer records) {
        return catchThrowable(() -> {
            List<LogBatchHeader> headers = LogRecordsParser.parse(records, LogBytesSource.AS_WRITTEN);
            ArrowBatchDecoder decoder =
                    new ArrowBatchDecoder(allocator, ArrowTypeMapping.toArrowSchema(EveryType.ROW_TYPE));
            for (LogBatchHeader header : headers) {
                try (VectorSchemaRoot root = decoder.decode(records, header)) {
                    // decoded without complaint
                }
            }
        });
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
