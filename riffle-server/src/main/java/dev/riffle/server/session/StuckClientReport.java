package dev.riffle.server.session;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the Fluss client's own threads (writer and lookup senders, RPC event loops; idle ones left
 * out) were doing when a request ran out of time, logged as a WARN. The Fluss 0.9 client has no deadline for an RPC in
 * flight and retries retriable write errors without end, so a request that times out says only
 * "it did not finish"; the stacks say whether a sender waits for a writer id, loops on a leader it
 * cannot find, or waits for a response that never comes. Written at most once a minute per process:
 * when the cluster is gone every request times out, and one report says it all.
 */
final class StuckClientReport {
    private static final Logger LOG = LoggerFactory.getLogger(StuckClientReport.class);
    private static final long EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);
    private static final int FRAMES = 14;
    private static final AtomicLong lastNanos = new AtomicLong(System.nanoTime() - EVERY_NANOS);

    private StuckClientReport() {}

    /** Logs the Fluss client threads' stacks for {@code what}, unless a report was logged within the minute. */
    static void log(String what) {
        long now = System.nanoTime();
        long last = lastNanos.get();
        if (now - last < EVERY_NANOS || !lastNanos.compareAndSet(last, now) || !LOG.isWarnEnabled()) {
            return;
        }
        StringBuilder report = new StringBuilder();
        for (ThreadInfo thread : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            if (isFlussThread(thread.getThreadName()) && !isIdle(thread.getStackTrace())) {
                report.append("\n\"").append(thread.getThreadName()).append("\" ").append(thread.getThreadState());
                StackTraceElement[] frames = thread.getStackTrace();
                for (int i = 0; i < Math.min(FRAMES, frames.length); i++) {
                    report.append("\n    at ").append(frames[i]);
                }
            }
        }
        LOG.warn("{} ran out of time; the Fluss client's threads at that moment (logged at most once a minute):{}",
                what, report.length() == 0 ? " none" : report);
    }

    /** The client's threads, and an embedded cluster's request workers (in tests and {@code riffle local}). */
    static boolean isFlussThread(String name) {
        return name.startsWith("fluss-write-sender") || name.startsWith("fluss-lookup-sender")
                || name.startsWith("fluss-netty-client") || name.startsWith("fluss-netty-server-worker");
    }

    /** An event loop waiting for I/O or a pool thread waiting for work: nothing stuck there. */
    static boolean isIdle(StackTraceElement[] frames) {
        for (int i = 0; i < Math.min(6, frames.length); i++) {
            String method = frames[i].getMethodName();
            if (method.startsWith("epollWait") || method.equals("getTask") || method.equals("take")
                    || method.equals("poll")) {
                return true;
            }
        }
        return false;
    }
}
