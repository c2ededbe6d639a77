package dev.riffle.server.sql;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.TableReader;

/**
 * What one SQL statement answered: rows (as Arrow batches, whatever computed them) or the number
 * of rows an INSERT, UPDATE, DELETE or DDL statement changed. Closing it frees the statement's
 * read and its connection.
 *
 * <pre>{@code
 * try (SqlResult result = SqlStatements.run(request, "SELECT * FROM shop.orders", List.of())) {
 *     if (result instanceof SqlResult.Rows rows) { ... rows.reader() ... }
 * }
 * }</pre>
 */
public sealed interface SqlResult extends AutoCloseable {
    @Override
    void close();

    /**
     * Rows, read as the caller takes them.
     *
     * @param direct whether the rows are a table read's own batches (full precision, no row engine)
     */
    record Rows(TableReader reader, boolean direct, AutoCloseable statement) implements SqlResult {
        public Rows {
            requireNonNull(reader, "reader is null");
            requireNonNull(statement, "statement is null");
        }

        @Override
        public void close() {
            try {
                reader.close();
            } finally {
                try {
                    statement.close();
                } catch (Exception e) {
                    throw new IllegalStateException("Releasing a SQL connection failed: " + e.getMessage(), e);
                }
            }
        }
    }

    /**
     * How many rows a statement changed (0 for DDL), and what its client should be told besides
     * (PostgreSQL's notices: a {@code CREATE INDEX} that did nothing).
     */
    record Updated(long count, java.util.List<String> notices) implements SqlResult {
        public Updated {
            notices = java.util.List.copyOf(notices);
        }

        public Updated(long count) {
            this(count, java.util.List.of());
        }

        @Override
        public void close() {}
    }
}
