package dev.riffle.pgwire.types;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RowBytesTest {
    @Test
    void decimalsAreWhatLongToStringWrites() {
        long[] edges = {0, 9, 10, 99, 100, 101, -1, -10, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, Integer.MIN_VALUE,
            999_999_999_999_999_999L, 1_000_000_000_000_000_000L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
        for (long value : edges) {
            assertThat(decimal(value)).isEqualTo(Long.toString(value));
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            long value = random.nextLong() >> random.nextInt(64);
            assertThat(decimal(value)).isEqualTo(Long.toString(value));
        }
    }

    @Test
    void growsAndOverwritesInPlace() {
        RowBytes row = new RowBytes();
        row.writeInt(0);
        for (int i = 0; i < 1000; i++) {
            row.writeAscii("abc");
        }
        row.setInt(0, row.length() - 4);
        assertThat(row.length()).isEqualTo(3004);
        assertThat(row.array()[3]).isEqualTo((byte) (3000 & 0xff));
        row.truncate(4);
        row.writeUtf8("é");
        assertThat(new String(row.array(), 4, row.length() - 4, UTF_8)).isEqualTo("é");
    }

    @Test
    void anArrayGrownForOneLargeRowIsLetGoAtTheNextClear() {
        RowBytes row = new RowBytes();
        row.writeBytes(new byte[3 * RowBytes.KEPT_BYTES]);
        assertThat(row.capacity()).isGreaterThanOrEqualTo(3 * RowBytes.KEPT_BYTES);
        row.clear();
        assertThat(row.length()).isZero();
        assertThat(row.capacity()).isEqualTo(1024);
        row.writeBytes(new byte[RowBytes.KEPT_BYTES / 2]);
        int grown = row.capacity();
        row.clear();
        assertThat(row.capacity()).as("a moderate size is kept for the next rows").isEqualTo(grown);
    }

    private static String decimal(long value) {
        RowBytes row = new RowBytes();
        row.writeByte('x');
        row.writeDecimal(value);
        return new String(row.array(), 1, row.length() - 1, UTF_8);
    }
}
