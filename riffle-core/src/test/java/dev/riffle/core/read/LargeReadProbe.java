package dev.riffle.core.read;

import dev.riffle.core.Riffle;
import dev.riffle.core.scan.LogBatch;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import org.apache.arrow.vector.IntVector;

/**
 * Reads a whole table in its own JVM (started by {@link LargeReadIT} with a small heap) and prints
 * what it read: {@code rows=N idSum=S peakHeapBytes=H}.
 */
public final class LargeReadProbe {
    private LargeReadProbe() {}

    public static void main(String[] args) throws Exception {
        long rows = 0;
        long idSum = 0;
        try (Riffle riffle = Riffle.connect(args[0]);
                BoundedLogReader reader = riffle.table(args[1]).read().createLogReader()) {
            while (reader.hasNext()) {
                try (LogBatch batch = reader.next()) {
                    IntVector id = (IntVector) batch.root().getVector(0);
                    for (int i = 0; i < batch.rowCount(); i++) {
                        idSum += id.get(i);
                    }
                    rows += batch.rowCount();
                }
            }
        }
        long peakHeap = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peakHeap += pool.getPeakUsage().getUsed();
            }
        }
        System.out.println("rows=" + rows + " idSum=" + idSum + " peakHeapBytes=" + peakHeap);
    }
}
