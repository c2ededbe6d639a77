package dev.riffle.cli.sql;

import dev.riffle.core.reader.TableReader;

/**
 * Where {@code riffle sql -e} sends its statements, one at a time: its own {@code jdbc:riffle}
 * connection ({@link JdbcStatements}), or a running gateway that serves the same cluster
 * ({@link GatewayStatements}). Both answer alike, so the command prints the same either way.
 */
interface StatementTarget extends AutoCloseable {

    /**
     * Runs one statement.
     *
     * @throws Exception what the statement's failure is: a {@link java.sql.SQLException}, a
     *     {@link dev.riffle.cli.running.GatewayFailure} or a runtime exception
     */
    Outcome run(String sql) throws Exception;

    @Override
    void close();

    /** What one statement answered. */
    sealed interface Outcome extends AutoCloseable {
        @Override
        void close();

        /** Rows, to print; closing them closes {@code source} after the reader (the statement behind them). */
        record Rows(TableReader reader, AutoCloseable source) implements Outcome {
            Rows(TableReader reader) {
                this(reader, () -> { });
            }

            @Override
            public void close() {
                try (AutoCloseable last = source) {
                    reader.close();
                } catch (Exception e) {
                    // the rows are printed and freed; a statement that will not close holds nothing of them
                }
            }
        }

        /** A statement that answers no rows: how many rows it changed, or empty for DDL. */
        record Changed(java.util.OptionalLong rows) implements Outcome {
            @Override
            public void close() {}
        }
    }
}
