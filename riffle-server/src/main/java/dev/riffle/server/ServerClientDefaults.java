package dev.riffle.server;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;

/**
 * The Fluss client settings a Riffle server's connections use unless told otherwise: a lookup or a
 * write waits 1 ms (lookups) or 5 ms (writes) for others to batch with, not Fluss's 100 ms, since a
 * server answers many callers and one caller's point query must not wait a tenth of a second.
 *
 * <pre>{@code
 * Connection connection = ConnectionFactory.createConnection(ServerClientDefaults.apply(conf));
 * }</pre>
 */
public final class ServerClientDefaults {
    public static final Duration LOOKUP_BATCH_TIMEOUT = Duration.ofMillis(1);
    public static final Duration WRITER_BATCH_TIMEOUT = Duration.ofMillis(5);

    private ServerClientDefaults() {}

    /** A copy of {@code conf} with the defaults set where it sets nothing itself. */
    public static Configuration apply(Configuration conf) {
        Configuration copy = new Configuration(requireNonNull(conf, "conf is null"));
        if (!copy.containsKey(ConfigOptions.CLIENT_LOOKUP_BATCH_TIMEOUT.key())) {
            copy.set(ConfigOptions.CLIENT_LOOKUP_BATCH_TIMEOUT, LOOKUP_BATCH_TIMEOUT);
        }
        if (!copy.containsKey(ConfigOptions.CLIENT_WRITER_BATCH_TIMEOUT.key())) {
            copy.set(ConfigOptions.CLIENT_WRITER_BATCH_TIMEOUT, WRITER_BATCH_TIMEOUT);
        }
        return copy;
    }
}
