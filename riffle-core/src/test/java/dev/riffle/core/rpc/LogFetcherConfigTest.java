package dev.riffle.core.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A page's fetches are sized by the rows it wants, between a floor and the whole-table sizes. */
class LogFetcherConfigTest {
    private static final LogFetcher.Config DEFAULT = LogFetcher.Config.DEFAULT;

    @Test
    void aPageAsksForAboutItsRowsWorthOfBytes() {
        LogFetcher.Config page = DEFAULT.forRows(1_000);
        assertThat(page.maxBytesPerBucket()).isEqualTo(256_000);
        assertThat(page.maxBytes()).isEqualTo(1_024_000);
        assertThat(page.maxBufferedBytes()).isEqualTo(2_048_000);
        assertThat(page.requestsPerLeader()).isEqualTo(1);
        assertThat(page.maxWaitMs()).isEqualTo(DEFAULT.maxWaitMs());
    }

    @Test
    void aSmallPageStillAsksForTheFloorAndABigOneForNoMoreThanAWholeTableRead() {
        assertThat(DEFAULT.forRows(0).maxBytesPerBucket()).isEqualTo(64 << 10);
        assertThat(DEFAULT.forRows(10).maxBytesPerBucket()).isEqualTo(64 << 10);
        assertThat(DEFAULT.forRows(Long.MAX_VALUE)).isEqualTo(DEFAULT);
        assertThat(DEFAULT.forRows(DEFAULT.maxBytesPerBucket() / 256 + 1)).isEqualTo(DEFAULT);
        assertThatThrownBy(() -> DEFAULT.forRows(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }
}
