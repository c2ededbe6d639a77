package dev.riffle.cli.read;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadProgress;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The progress of {@code riffle read} on stderr. When live (stderr is a terminal that no data goes
 * to), one line is redrawn in place at most ten times a second: rows, megabytes, buckets caught
 * up, rows per second. At the end, live or not, one summary line:
 * {@code Read 1000 rows (0.1 MB) from 3 buckets in 1.2 s}, so scripts see it too.
 *
 * <p>Megabytes are the Arrow bytes read, 10^6 to the megabyte. Updated between batches only: while
 * the reader waits for rows, the line stands still.
 */
public final class ProgressBar {
    private static final long REDRAW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final PrintWriter err;
    private final boolean live;
    private final LongSupplier nanoClock;
    private final long startedNanos;
    private long lastDrawNanos;
    private int lastLineLength;

    /**
     * @param live whether to draw the bar (only on a terminal: it moves the cursor back with {@code \r})
     * @param nanoClock {@link System#nanoTime}, or a test's clock
     */
    public ProgressBar(PrintWriter err, boolean live, LongSupplier nanoClock) {
        this.err = requireNonNull(err, "err is null");
        this.live = live;
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        this.startedNanos = nanoClock.getAsLong();
        // The first draw comes after one interval: a read that ends sooner shows no bar, only its summary.
        this.lastDrawNanos = startedNanos;
    }

    /** Redraws the bar if it is live and the last redraw is old enough. */
    public void update(ReadProgress progress) {
        long now = nanoClock.getAsLong();
        if (live && now - lastDrawNanos >= REDRAW_NANOS) {
            draw(progress, now);
        }
    }

    /**
     * Draws the final numbers, ends the bar's line, and prints the summary.
     *
     * @param outputClosed whether the read stopped early because the output was closed
     */
    public void finish(ReadProgress progress, boolean outputClosed) {
        long now = nanoClock.getAsLong();
        if (live) {
            draw(progress, now);
            err.println();
        }
        // A read answered by a gateway (or one with no log part) knows no buckets: it names none.
        String summary = String.format(Locale.ROOT, "Read %s (%.1f MB)%s in %.1f s", plural(progress.rows(), "row"),
                progress.bytes() / 1e6, progress.buckets() == 0 ? "" : " from " + plural(progress.buckets(), "bucket"),
                (now - startedNanos) / 1e9);
        err.println(outputClosed ? summary + "; stopped early: the output was closed" : summary);
        err.flush();
    }

    /** Wipes the bar, so that an error message starts on a clean line. */
    public void clear() {
        if (live && lastLineLength > 0) {
            err.print("\r" + " ".repeat(lastLineLength) + "\r");
            err.flush();
            lastLineLength = 0;
        }
    }

    private void draw(ReadProgress progress, long now) {
        double seconds = Math.max(1e-9, (now - startedNanos) / 1e9);
        String buckets = progress.buckets() == 0 ? ""
                : String.format(Locale.ROOT, "  %d/%d buckets caught up", progress.bucketsDone(), progress.buckets());
        String line = String.format(Locale.ROOT, "%,d %s  %.1f MB%s  %,.0f rows/s", progress.rows(),
                progress.rows() == 1 ? "row" : "rows", progress.bytes() / 1e6, buckets, progress.rows() / seconds);
        // Pad over the previous line: it may have been longer.
        int padding = Math.max(0, lastLineLength - line.length());
        err.print("\r" + line + " ".repeat(padding));
        err.flush();
        lastLineLength = line.length();
        lastDrawNanos = now;
    }

    private static String plural(long count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}
