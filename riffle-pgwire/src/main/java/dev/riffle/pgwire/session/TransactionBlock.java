package dev.riffle.pgwire.session;

import dev.riffle.pgwire.error.PgException;
import dev.riffle.pgwire.protocol.BackendMessage.TransactionStatus;

/**
 * Where a session stands in PostgreSQL's transaction block: idle, in a block ({@code BEGIN}), or
 * in a block a statement failed in, where everything but its end (or a rollback to a savepoint) is
 * refused until it ends. Riffle's writes are not transactional: the block is what clients and
 * ORMs expect to see (ReadyForQuery's status, 25P02), not an isolation of their writes.
 *
 * <pre>{@code
 * TransactionBlock block = new TransactionBlock();
 * block.begin();
 * block.statementFailed();
 * block.checkNotFailed(); // 25P02
 * }</pre>
 */
final class TransactionBlock {
    private TransactionStatus status = TransactionStatus.IDLE;

    /** What ReadyForQuery reports. */
    TransactionStatus status() {
        return status;
    }

    boolean idle() {
        return status == TransactionStatus.IDLE;
    }

    boolean failed() {
        return status == TransactionStatus.FAILED;
    }

    void begin() {
        status = TransactionStatus.IN_TRANSACTION;
    }

    /**
     * Ends the block ({@code COMMIT}, {@code ROLLBACK}).
     *
     * @return whether it had failed, so that its end is a rollback whatever the client asked
     */
    boolean end() {
        boolean failed = failed();
        status = TransactionStatus.IDLE;
        return failed;
    }

    /** {@code ROLLBACK TO SAVEPOINT}: the block takes statements again. */
    void rollbackToSavepoint() {
        status = TransactionStatus.IN_TRANSACTION;
    }

    /** A statement failed: inside a block, the block fails with it. */
    void statementFailed() {
        if (status == TransactionStatus.IN_TRANSACTION) {
            status = TransactionStatus.FAILED;
        }
    }

    /** @throws PgException 25P02 when the block failed */
    void checkNotFailed() {
        if (failed()) {
            throw new PgException("25P02", "current transaction is aborted, commands ignored until end of transaction"
                    + " block");
        }
    }
}
