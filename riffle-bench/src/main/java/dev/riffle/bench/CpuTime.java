package dev.riffle.bench;

import java.lang.management.ManagementFactory;

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
}
