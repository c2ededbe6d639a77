package dev.riffle.cli.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.reader.ReadProgress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final StringWriter err = new StringWriter();

    @Test
    void notLiveOnlyPrintsTheSummary() {
        ProgressBar bar = new ProgressBar(new PrintWriter(err), false, clock::get);
        bar.update(new ReadProgress(10, 1_000, 0, 3));
        advance(1_500);
        bar.finish(new ReadProgress(1_000, 250_000, 3, 3), false);
        assertThat(err.toString()).isEqualTo("Read 1000 rows (0.3 MB) from 3 buckets in 1.5 s" + System.lineSeparator());
    }

    @Test
    void liveRedrawsAtMostTenTimesASecondOnOneLine() {
        ProgressBar bar = new ProgressBar(new PrintWriter(err), true, clock::get);
        bar.update(new ReadProgress(10, 2_000_000, 0, 2)); // at once: not drawn, a short read shows no bar
        advance(100);
        bar.update(new ReadProgress(20, 4_000_000, 0, 2));
        advance(50);
        bar.update(new ReadProgress(25, 5_000_000, 0, 2)); // too soon after the last: not drawn
        advance(50);
        bar.update(new ReadProgress(30_000, 6_000_000, 1, 2));
        assertThat(err.toString()).isEqualTo("\r20 rows  4.0 MB  0/2 buckets caught up  200 rows/s"
                + "\r30,000 rows  6.0 MB  1/2 buckets caught up  150,000 rows/s");
    }

    @Test
    void aShorterLinePadsOverTheLongerOne() {
        ProgressBar bar = new ProgressBar(new PrintWriter(err), true, clock::get);
        advance(100);
        bar.update(new ReadProgress(1_000, 0, 0, 1));
        advance(9_900);
        bar.update(new ReadProgress(1_000, 0, 0, 1));
        assertThat(err.toString()).isEqualTo("\r1,000 rows  0.0 MB  0/1 buckets caught up  10,000 rows/s"
                + "\r1,000 rows  0.0 MB  0/1 buckets caught up  100 rows/s   ");
    }

    @Test
    void liveFinishesTheLineThenSummarizes() {
        ProgressBar bar = new ProgressBar(new PrintWriter(err), true, clock::get);
        advance(1_000);
        bar.finish(new ReadProgress(1, 100, 1, 1), true);
        assertThat(err.toString()).isEqualTo("\r1 row  0.0 MB  1/1 buckets caught up  1 rows/s" + System.lineSeparator()
                + "Read 1 row (0.0 MB) from 1 bucket in 1.0 s; stopped early: the output was closed"
                + System.lineSeparator());
    }

    @Test
    void clearWipesTheBarBeforeAnErrorMessage() {
        ProgressBar bar = new ProgressBar(new PrintWriter(err), true, clock::get);
        advance(1_000);
        bar.update(new ReadProgress(5, 0, 0, 1));
        String drawn = err.toString();
        bar.clear();
        int width = drawn.length() - 1;
        assertThat(err.toString()).isEqualTo(drawn + "\r" + " ".repeat(width) + "\r");
    }

    private void advance(long millis) {
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
