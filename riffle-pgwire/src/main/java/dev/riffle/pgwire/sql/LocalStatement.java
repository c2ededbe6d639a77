package dev.riffle.pgwire.sql;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A statement the PostgreSQL layer answers itself, without the SQL engine: the session settings,
 * transaction control and server-information queries that drivers send on connect. Riffle has no
 * transactions: BEGIN, COMMIT and ROLLBACK are accepted (and the transaction status they imply is
 * reported) but every statement takes effect when it runs.
 *
 * <pre>{@code
 * LocalStatements.recognize("SET application_name = 'x'")   // Optional[SetParameter[name=application_name, value=x]]
 * }</pre>
 */
public sealed interface LocalStatement {

    /** The one column the statement answers, if it answers a row. */
    default Optional<String> column() {
        return Optional.empty();
    }

    /** {@code SET name = value} / {@code SET name TO value} / {@code SET TIME ZONE value}. */
    record SetParameter(String name, String value) implements LocalStatement {
        public SetParameter {
            requireNonNull(name, "name is null");
            requireNonNull(value, "value is null");
        }
    }

    /** {@code SET SESSION CHARACTERISTICS ...}, {@code SET TRANSACTION ...}: accepted, nothing to keep. */
    record SetIgnored() implements LocalStatement {}

    /** {@code RESET name}, {@code RESET ALL} (empty name), {@code DISCARD ALL}. */
    record ResetParameter(Optional<String> name, String tag) implements LocalStatement {
        public ResetParameter {
            requireNonNull(name, "name is null");
            requireNonNull(tag, "tag is null");
        }
    }

    /** {@code SHOW name}: one row, one column named after the parameter. */
    record ShowParameter(String name) implements LocalStatement {
        public ShowParameter {
            requireNonNull(name, "name is null");
        }

        @Override
        public Optional<String> column() {
            return Optional.of(name);
        }
    }

    /** {@code BEGIN} / {@code START TRANSACTION}. */
    record Begin() implements LocalStatement {}

    /** {@code COMMIT} / {@code END} ({@code commit}) or {@code ROLLBACK} / {@code ABORT}. */
    record End(boolean commit) implements LocalStatement {}

    /**
     * {@code SAVEPOINT s}, {@code RELEASE [SAVEPOINT] s} or {@code ROLLBACK TO [SAVEPOINT] s} (tools
     * wrap statements in them: psql's ON_ERROR_ROLLBACK, ORMs' nested transactions). Riffle's
     * transaction blocks undo no writes (each write is Fluss's once acknowledged), so a savepoint
     * marks nothing; rolling back to one ends a failed block's failure, as in PostgreSQL.
     */
    record Savepoint(Action action) implements LocalStatement {
        public enum Action { SAVE, RELEASE, ROLLBACK_TO }

        public Savepoint {
            requireNonNull(action, "action is null");
        }
    }


    /** A COPY TO STDOUT or FROM STDIN, run by the session's COPY sub-protocol. */
    record Copy(CopyCommand command) implements LocalStatement {
        public Copy {
            requireNonNull(command, "command is null");
        }
    }


    /** A statement Riffle does not serve (yet): answered with feature_not_supported (0A000). */
    record Unsupported(String what) implements LocalStatement {
        public Unsupported {
            requireNonNull(what, "what is null");
        }
    }
}
