package dev.riffle.cli.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.read.StoppingOffsets;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OffsetsArgumentTest {
    private static final long JUNE_1 = Instant.parse("2024-06-01T00:00:00Z").toEpochMilli();

    @Test
    void keywords() {
        assertThat(OffsetsArgument.parseStart("earliest")).isEqualTo(StartingOffsets.earliest());
        assertThat(OffsetsArgument.parseStart(" EARLIEST ")).isEqualTo(StartingOffsets.earliest());
        assertThat(OffsetsArgument.parseStop("latest")).isEqualTo(StoppingOffsets.latest());
    }

    @Test
    void keywordOfTheOtherEndIsRefusedWithAReason() {
        assertThatThrownBy(() -> OffsetsArgument.parseStart("latest"))
                .hasMessageStartingWith("'latest' is where a read stops, not where it starts");
        assertThatThrownBy(() -> OffsetsArgument.parseStop("earliest"))
                .hasMessageStartingWith("'earliest' is where a read starts, not where it stops");
    }

    @Test
    void isoInstants() {
        assertThat(OffsetsArgument.parseStart("2024-06-01T00:00:00Z")).isEqualTo(StartingOffsets.timestamp(JUNE_1));
        assertThat(OffsetsArgument.parseStop("2024-06-01T00:00:00.250Z")).isEqualTo(StoppingOffsets.timestamp(JUNE_1 + 250));
        assertThat(OffsetsArgument.parseStart("2024-06-01T02:00:00+02:00")).isEqualTo(StartingOffsets.timestamp(JUNE_1));
        assertThat(OffsetsArgument.parseStart("2024-05-31T19:00:00-05:00")).isEqualTo(StartingOffsets.timestamp(JUNE_1));
    }

    @Test
    void localDateTimesAndDatesAreUtc() {
        assertThat(OffsetsArgument.parseStart("2024-06-01T00:00:00")).isEqualTo(StartingOffsets.timestamp(JUNE_1));
        assertThat(OffsetsArgument.parseStart("2024-06-01T00:00")).isEqualTo(StartingOffsets.timestamp(JUNE_1));
        assertThat(OffsetsArgument.parseStart("2024-06-01 00:00:01")).isEqualTo(StartingOffsets.timestamp(JUNE_1 + 1000));
        assertThat(OffsetsArgument.parseStop("2024-06-01")).isEqualTo(StoppingOffsets.timestamp(JUNE_1));
    }

    @Test
    void epochMilliseconds() {
        assertThat(OffsetsArgument.parseStart(Long.toString(JUNE_1))).isEqualTo(StartingOffsets.timestamp(JUNE_1));
        assertThat(OffsetsArgument.parseStop("0")).isEqualTo(StoppingOffsets.timestamp(0));
    }

    @Test
    void bucketOffsets() {
        assertThat(OffsetsArgument.parseStart("0:100,1:250"))
                .isEqualTo(StartingOffsets.explicit(Map.of(BucketRef.of(0), 100L, BucketRef.of(1), 250L)));
        assertThat(OffsetsArgument.parseStop(" 0:100 , 1:250 "))
                .isEqualTo(StoppingOffsets.explicit(Map.of(BucketRef.of(0), 100L, BucketRef.of(1), 250L)));
    }

    @Test
    void partitionedBucketOffsets() {
        assertThat(OffsetsArgument.parseStop("2024-06-01/0:100,2024-06-02/0:7,2024-06-01/1:5"))
                .isEqualTo(StoppingOffsets.explicit(Map.of(
                        BucketRef.of("2024-06-01", 0), 100L,
                        BucketRef.of("2024-06-02", 0), 7L,
                        BucketRef.of("2024-06-01", 1), 5L)));
        // Only the last slash separates the partition from the bucket.
        assertThat(OffsetsArgument.parseStart("a/b/3:4"))
                .isEqualTo(StartingOffsets.explicit(Map.of(BucketRef.of("a/b", 3), 4L)));
    }

    @Test
    void malformedValuesNameTheBadPart() {
        assertThatThrownBy(() -> OffsetsArgument.parseStart("yesterday"))
                .hasMessage("'yesterday' is not earliest, " + OffsetsArgument.FORMS);
        assertThatThrownBy(() -> OffsetsArgument.parseStop("0:abc"))
                .hasMessageStartingWith("'0:abc' is not BUCKET:OFFSET");
        assertThatThrownBy(() -> OffsetsArgument.parseStop("0:1,"))
                .hasMessageStartingWith("'0:1,' has an empty entry");
        assertThatThrownBy(() -> OffsetsArgument.parseStop("/0:1"))
                .hasMessageStartingWith("'/0:1' has an empty partition name");
        assertThatThrownBy(() -> OffsetsArgument.parseStop("0:-1"))
                .hasMessageStartingWith("'0:-1' is not BUCKET:OFFSET");
        assertThatThrownBy(() -> OffsetsArgument.parseStop("0:1,0:2"))
                .hasMessage("Bucket 0 is given twice in '0:1,0:2'");
        assertThatThrownBy(() -> OffsetsArgument.parseStop("3000000000:1"))
                .hasMessage("The bucket in '3000000000:1' is out of range (at most 2147483647)");
        assertThatThrownBy(() -> OffsetsArgument.parseStop("0:99999999999999999999"))
                .hasMessageStartingWith("The offset in '0:99999999999999999999' is out of range");
        assertThatThrownBy(() -> OffsetsArgument.parseStart("99999999999999999999"))
                .hasMessage("'99999999999999999999' is too large for epoch milliseconds");
        assertThatThrownBy(() -> OffsetsArgument.parseStart(" "))
                .hasMessageStartingWith("The value is empty");
    }

    @Test
    void malformedTimesAreReportedAsTimes() {
        assertThatThrownBy(() -> OffsetsArgument.parseStart("2024-13-01T00:00:00Z"))
                .hasMessageStartingWith("'2024-13-01T00:00:00Z' is not a valid time (")
                .hasMessageContaining("MonthOfYear");
        assertThatThrownBy(() -> OffsetsArgument.parseStop("2024-06-01T25:00"))
                .hasMessageStartingWith("'2024-06-01T25:00' is not a valid time (Invalid value for HourOfDay");
        assertThatThrownBy(() -> OffsetsArgument.parseStop("2024-06-01Tnoon"))
                .hasMessageStartingWith("'2024-06-01Tnoon' is not a valid time (unexpected text at character 12)");
    }

    @Test
    void everyMessageIsOneLine() {
        for (String bad : new String[] {"x", "0:x", "2024-02-30T00:00:00Z", "1:2,1:3", ",", "a/"}) {
            assertThatThrownBy(() -> OffsetsArgument.parseStart(bad)).message().doesNotContain("\n");
        }
    }
}
