package dev.riffle.core.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.util.OptionalInt;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Riffle's batch layouts against the constants of Fluss's own {@code LogRecordBatchFormat}: 1.0.0's
 * (from the isolated 1.0 jar) and 0.9.1's (on the test classpath).
 */
class LogBatchLayoutTest {
    private static final String FORMAT = "org.apache.fluss.record.LogRecordBatchFormat";

    @Test
    void matchesFluss10() {
        Fluss10BatchWriter fluss10 = Fluss10.writer();
        Function<String, Integer> constant = name -> ((Number) fluss10.staticField(FORMAT, name)).intValue();

        assertCommonFields(constant);
        assertThat(LogBatchLayout.V0).isEqualTo(layout(constant, "V0", 0, false));
        assertThat(LogBatchLayout.V1).isEqualTo(layout(constant, "V1", 1, true));
        assertThat(LogBatchLayout.V2).isEqualTo(layout(constant, "V2", 2, true));
        assertThat(constant.apply("V2_LEADER_EPOCH_OFFSET")).isEqualTo(21);
        assertThat(fluss10.staticField("org.apache.fluss.record.LogRecordBatch", "CURRENT_LOG_MAGIC_VALUE"))
                .as("1.0 writes magic 1 only for tables with statistics").isEqualTo((byte) 0);
    }

    @Test
    void magic0IsFluss091sAndFluss091sMagic1IsTheOneRiffleRejects() {
        Function<String, Integer> constant = LogBatchLayoutTest::fluss091Constant;

        assertCommonFields(constant);
        assertThat(LogBatchLayout.V0).isEqualTo(layout(constant, "V0", 0, false));
        assertThat(LogBatchLayout.FLUSS_09_MAGIC_1).isEqualTo(layout(constant, "V1", 1, false));
        assertThat(constant.apply("V1_LEADER_EPOCH_OFFSET")).isEqualTo(21);
        assertThat(org.apache.fluss.record.LogRecordBatch.CURRENT_LOG_MAGIC_VALUE)
                .as("released 0.9 writers write magic 0 only").isEqualTo((byte) 0);
    }

    @Test
    void magicsRiffleDoesNotReadHaveNoLayout() {
        assertThat(LogBatchLayout.of((byte) 0)).contains(LogBatchLayout.V0);
        assertThat(LogBatchLayout.of((byte) 1)).contains(LogBatchLayout.V1);
        assertThat(LogBatchLayout.of((byte) 2)).contains(LogBatchLayout.V2);
        assertThat(LogBatchLayout.of((byte) 3)).isEmpty();
        assertThat(LogBatchLayout.of((byte) -1)).isEmpty();
    }

    private static void assertCommonFields(Function<String, Integer> constant) {
        assertThat(constant.apply("LENGTH_OFFSET")).isEqualTo(LogBatchLayout.LENGTH_OFFSET);
        assertThat(constant.apply("MAGIC_OFFSET")).isEqualTo(LogBatchLayout.MAGIC_OFFSET);
        assertThat(constant.apply("COMMIT_TIMESTAMP_OFFSET")).isEqualTo(LogBatchLayout.COMMIT_TIMESTAMP_OFFSET);
        assertThat(constant.apply("LOG_OVERHEAD")).isEqualTo(LogBatchLayout.LOG_OVERHEAD);
    }

    private static LogBatchLayout layout(Function<String, Integer> constant, String version, int magic,
            boolean statistics) {
        return new LogBatchLayout((byte) magic,
                constant.apply(version + "_CRC_OFFSET"),
                constant.apply(version + "_SCHEMA_ID_OFFSET"),
                constant.apply(version + "_ATTRIBUTES_OFFSET"),
                constant.apply(version + "_LAST_OFFSET_DELTA_OFFSET"),
                constant.apply(version + "_RECORDS_COUNT_OFFSET"),
                statistics ? OptionalInt.of(constant.apply(version + "_STATISTICS_LENGTH_OFFSET")) : OptionalInt.empty(),
                constant.apply(version + "_RECORD_BATCH_HEADER_SIZE"));
    }

    private static int fluss091Constant(String name) {
        try {
            Field field = Class.forName(FORMAT).getDeclaredField(name);
            field.setAccessible(true);
            return ((Number) field.get(null)).intValue();
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("No " + name + " in Fluss 0.9.1's " + FORMAT, e);
        }
    }
}
