package dev.riffle.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * This JVM's CPU time: two cores serve the Fluss tablet server, the measured server and its client,
 * so CPU per row, less noisy than the wall clock, says where a round's time went.
 *
 * <pre>{@code
 * long before = CpuTime.processNanos();
 * // ... measured work ...
 * double seconds = (CpuTime.processNanos() - before) / 1e9;
 * }</pre>
 */
final class CpuTime {
    private CpuTime() {}

    static long processNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * CPU time of the JVM's live threads, summed by name with digits taken out
     * ({@code fluss-netty-client(EPOLL)-#-#}): a snapshot to subtract from a later one. Threads
     * that end between two snapshots (a pool shut down) are missing from the later one; their time
     * stays in the process's total, with the JIT's and the GC's.
     */
    private static final String JIT = "(JIT compiling, wall)";
    private static final String GC = "(GC pauses and cycles, wall)";

    static Map<String, Long> threadNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> byName = new HashMap<>();
        for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long nanos = threads.getThreadCpuTime(info.getThreadId());
            if (nanos > 0) {
                byName.merge(info.getThreadName().replaceAll("\\d+", "#"), nanos, Long::sum);
            }
        }
        // Not threads of the JVM's own, but where their time goes: wall time compiling and collecting.
        byName.put(JIT, ManagementFactory.getCompilationMXBean().getTotalCompilationTime() * 1_000_000L);
        byName.put(GC, ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(gc -> Math.max(0, gc.getCollectionTime())).sum() * 1_000_000L);
        return byName;
    }

    /**
     * The CPU seconds each group of threads spent between {@code before} and {@code after} (the
     * largest first, those over 10 ms, with the JIT's compile time and the GC's collection time),
     * and the rest of {@code processSeconds}: threads that ended, the JIT and the GC.
     */
    static String spent(Map<String, Long> before, Map<String, Long> after, double processSeconds) {
        Map<String, Long> spent = new HashMap<>();
        after.forEach((name, nanos) -> spent.put(name, nanos - before.getOrDefault(name, 0L)));
        double named = spent.entrySet().stream().filter(e -> !e.getKey().equals(JIT) && !e.getKey().equals(GC))
                .mapToLong(Map.Entry::getValue).sum() / 1e9;
        String groups = spent.entrySet().stream().filter(e -> e.getValue() > 10_000_000L)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .map(e -> String.format(Locale.ROOT, "%s %.2f", e.getKey(), e.getValue() / 1e9))
                .collect(Collectors.joining(", "));
        return String.format(Locale.ROOT, "%s; ended threads, JIT and GC %.2f", groups, processSeconds - named);
    }
}
