package dev.riffle.cli.process;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a one-shot command (riffle sql -e, read, tier --status) lets go of its Fluss connection once
 * its answer is written: closed on a daemon thread, so the process exits without waiting. Fluss's
 * client takes two seconds to close (its Netty event loops' quiet period); a command that has
 * printed its last row has nothing left to wait for, and exiting ends the connection anyway.
 *
 * <pre>{@code
 * Riffle riffle = Riffle.connect(conf);
 * try (TableReader reader = ...) { ... } finally { BackgroundClose.close(riffle, "the Fluss connection"); }
 * }</pre>
 */
public final class BackgroundClose {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundClose.class);

    private BackgroundClose() {}

    public static void close(AutoCloseable resource, String what) {
        Thread closing = new Thread(() -> {
            try {
                resource.close();
            } catch (Exception e) {
                LOG.warn("Closing {} failed: {}", what, e.toString());
            }
        }, "riffle-close");
        closing.setDaemon(true);
        closing.start();
    }
}
