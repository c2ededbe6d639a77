package dev.riffle.core.read;

import dev.riffle.core.exception.UnsupportedTableException;
import java.util.Optional;
import java.util.ServiceLoader;
import org.apache.fluss.client.FlussConnection;

/**
 * How the read façade reads datalake-enabled tables: the union of the lake snapshot and the log
 * past it, or the lake snapshot alone. riffle-lake implements it (Paimon through Fluss's lake
 * plugin) and registers a {@link Factory} as a service, so a {@code Riffle} finds it on the
 * classpath; riffle-core itself knows no lake format.
 *
 * <pre>{@code
 * TableReader rows = riffle.lake().open(new LakeRequest(connection, table, columns, filter, false, allocator));
 * }</pre>
 */
public interface LakeReads {

    /** The rows {@code request} asks for, filtered exactly once, in its columns. */
    dev.riffle.core.reader.TableReader open(LakeRequest request);

    /** Makes the lake side of a connection; found with {@link java.util.ServiceLoader}. */
    interface Factory {
        /** The lake side for a connection's cluster, or empty when this factory does not serve it. */
        Optional<LakeReads> create(FlussConnection connection);
    }

    /**
     * The lake side of {@code connection}'s cluster from the first {@link Factory} on the classpath
     * that serves it.
     *
     * @throws UnsupportedTableException when none does (riffle-lake is not on the classpath)
     */
    static LakeReads forConnection(FlussConnection connection) {
        for (Factory factory : ServiceLoader.load(Factory.class, LakeReads.class.getClassLoader())) {
            Optional<LakeReads> reads = factory.create(connection);
            if (reads.isPresent()) {
                return reads.get();
            }
        }
        throw new UnsupportedTableException("Reading a datalake-enabled table's lake needs riffle-lake on the"
                + " classpath (it reads Paimon through Fluss's lake plugin)");
    }
}
