package dev.riffle.server;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.exec.StatementLimits;
import java.time.Duration;

/**
 * What one request may cost, the same for every surface (HTTP, Flight SQL, PostgreSQL): checked
 * before anything is allocated or sent to Fluss.
 *
 * <pre>{@code
 * ServerLimits limits = ServerLimits.DEFAULT.withMaxKeys(1_000);
 * }</pre>
 *
 * @param maxBodyBytes the largest request body (or message) accepted
 * @param requestTimeout how long one Fluss call (metadata, write, lookup) may take
 * @param scanTimeout how long one bounded read may take
 * @param maxKeys the most keys one lookup, prefix lookup or delete may carry
 * @param maxBuckets the most buckets a table created through the server may have (below the
 *     cluster's own {@code max.bucket.num}: one request cannot make the cluster allocate a table of
 *     a billion buckets)
 * @param maxSqlLength the longest SQL statement, in characters, refused before it is parsed (see
 *     {@link StatementLimits})
 */
public record ServerLimits(long maxBodyBytes, Duration requestTimeout, Duration scanTimeout, int maxKeys,
        int maxBuckets, int maxSqlLength) {
    /** The most buckets per table by default. */
    public static final int DEFAULT_MAX_BUCKETS = 1024;
    public static final ServerLimits DEFAULT = new ServerLimits(64L * 1024 * 1024, Duration.ofSeconds(60),
            Duration.ofMinutes(5), 10_000, DEFAULT_MAX_BUCKETS, StatementLimits.DEFAULT.maxSqlLength());

    public ServerLimits {
        if (maxBodyBytes <= 0 || maxKeys <= 0 || maxBuckets <= 0 || maxSqlLength <= 0) {
            throw new IllegalArgumentException("limits must be positive, got maxBodyBytes " + maxBodyBytes
                    + ", maxKeys " + maxKeys + ", maxBuckets " + maxBuckets + ", maxSqlLength " + maxSqlLength);
        }
        requireNonNull(requestTimeout, "requestTimeout is null");
        requireNonNull(scanTimeout, "scanTimeout is null");
    }

    public ServerLimits withMaxBodyBytes(long bytes) {
        return new ServerLimits(bytes, requestTimeout, scanTimeout, maxKeys, maxBuckets, maxSqlLength);
    }

    public ServerLimits withRequestTimeout(Duration timeout) {
        return new ServerLimits(maxBodyBytes, timeout, scanTimeout, maxKeys, maxBuckets, maxSqlLength);
    }

    public ServerLimits withScanTimeout(Duration timeout) {
        return new ServerLimits(maxBodyBytes, requestTimeout, timeout, maxKeys, maxBuckets, maxSqlLength);
    }

    public ServerLimits withMaxKeys(int keys) {
        return new ServerLimits(maxBodyBytes, requestTimeout, scanTimeout, keys, maxBuckets, maxSqlLength);
    }

    public ServerLimits withMaxBuckets(int buckets) {
        return new ServerLimits(maxBodyBytes, requestTimeout, scanTimeout, maxKeys, buckets, maxSqlLength);
    }

    public ServerLimits withMaxSqlLength(int characters) {
        return new ServerLimits(maxBodyBytes, requestTimeout, scanTimeout, maxKeys, maxBuckets, characters);
    }
}
