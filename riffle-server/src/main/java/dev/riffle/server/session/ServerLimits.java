package dev.riffle.server.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.statement.StatementLimits;
import java.time.Duration;

/**
 * What one request may cost, the same for every surface (HTTP, Flight SQL, PostgreSQL): checked
 * before anything is allocated or sent to Fluss, and, for SQL, while a statement runs.
 *
 * <pre>{@code
 * ServerLimits limits = ServerLimits.DEFAULT.withMaxKeys(1_000).withStatementTimeout(Duration.ofSeconds(30));
 * }</pre>
 *
 * @param maxBodyBytes the largest request body (or message) accepted
 * @param requestTimeout how long one Fluss call (metadata, write, lookup) may take
 * @param scanTimeout how long one bounded read may take
 * @param statementTimeout how long one SQL statement may run, from its start to its last row: the
 *     deadline a surface may only shorten (a PostgreSQL session's {@code statement_timeout}, a
 *     Flight call's deadline)
 * @param maxKeys the most keys one lookup, prefix lookup or delete may carry
 * @param maxBuckets the most buckets a table created through the server may have (below the
 *     cluster's own {@code max.bucket.num}: one request cannot make the cluster allocate a table of
 *     a billion buckets)
 * @param statements what one SQL statement may cost: its length before it is parsed, and the
 *     budgets of what it builds while it runs ({@link StatementLimits})
 */
public record ServerLimits(long maxBodyBytes, Duration requestTimeout, Duration scanTimeout,
        Duration statementTimeout, int maxKeys, int maxBuckets, StatementLimits statements) {
    /** The most buckets per table by default. */
    public static final int DEFAULT_MAX_BUCKETS = 1024;
    /** How long a statement may run by default: five minutes, as long as a bounded read. */
    public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofMinutes(5);
    public static final ServerLimits DEFAULT = new ServerLimits(64L * 1024 * 1024, Duration.ofSeconds(60),
            Duration.ofMinutes(5), DEFAULT_STATEMENT_TIMEOUT, 10_000, DEFAULT_MAX_BUCKETS, StatementLimits.DEFAULT);

    public ServerLimits {
        if (maxBodyBytes <= 0 || maxKeys <= 0 || maxBuckets <= 0) {
            throw new IllegalArgumentException("limits must be positive, got maxBodyBytes " + maxBodyBytes
                    + ", maxKeys " + maxKeys + ", maxBuckets " + maxBuckets);
        }
        requireNonNull(requestTimeout, "requestTimeout is null");
        requireNonNull(scanTimeout, "scanTimeout is null");
        requireNonNull(statementTimeout, "statementTimeout is null");
        if (statementTimeout.isNegative() || statementTimeout.isZero()) {
            throw new IllegalArgumentException("statementTimeout must be positive, got " + statementTimeout);
        }
        requireNonNull(statements, "statements is null");
    }

    /** The longest SQL statement, in characters, refused before it is parsed. */
    public int maxSqlLength() {
        return statements.maxSqlLength();
    }

    public ServerLimits withMaxBodyBytes(long bytes) {
        return new ServerLimits(bytes, requestTimeout, scanTimeout, statementTimeout, maxKeys, maxBuckets, statements);
    }

    public ServerLimits withRequestTimeout(Duration timeout) {
        return new ServerLimits(maxBodyBytes, timeout, scanTimeout, statementTimeout, maxKeys, maxBuckets, statements);
    }

    public ServerLimits withScanTimeout(Duration timeout) {
        return new ServerLimits(maxBodyBytes, requestTimeout, timeout, statementTimeout, maxKeys, maxBuckets,
                statements);
    }

    public ServerLimits withStatementTimeout(Duration timeout) {
        return new ServerLimits(maxBodyBytes, requestTimeout, scanTimeout, timeout, maxKeys, maxBuckets, statements);
    }

    public ServerLimits withMaxKeys(int keys) {
        return new ServerLimits(maxBodyBytes, requestTimeout, scanTimeout, statementTimeout, keys, maxBuckets,
                statements);
    }

    public ServerLimits withMaxBuckets(int buckets) {
        return new ServerLimits(maxBodyBytes, requestTimeout, scanTimeout, statementTimeout, maxKeys, buckets,
                statements);
    }

    public ServerLimits withMaxSqlLength(int characters) {
        return withStatements(statements.withMaxSqlLength(characters));
    }

    public ServerLimits withStatements(StatementLimits limits) {
        return new ServerLimits(maxBodyBytes, requestTimeout, scanTimeout, statementTimeout, maxKeys, maxBuckets,
                limits);
    }
}
