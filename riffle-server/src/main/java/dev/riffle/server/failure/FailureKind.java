package dev.riffle.server.failure;

/**
 * What kind of failure a request met, in terms every surface can answer with: HTTP statuses,
 * Flight status codes and PostgreSQL SQLSTATE classes are each a mapping of these.
 */
public enum FailureKind {
    /** The request itself is wrong: a bad value, option, statement or combination. */
    INVALID_ARGUMENT,
    /** A database, table, partition or row that does not exist. */
    NOT_FOUND,
    /** Something to create exists already, or is in a state that forbids the change. */
    CONFLICT,
    /** No credentials, or credentials Fluss rejects. */
    UNAUTHENTICATED,
    /** Fluss's ACLs deny the caller. */
    PERMISSION_DENIED,
    /** A request over a limit (too many keys, too large a body or record). */
    TOO_LARGE,
    /** The server or the cluster cannot serve now (unreachable, busy, shutting down); retrying may help. */
    UNAVAILABLE,
    /** The request did not finish in time. */
    TIMEOUT,
    /** The caller cancelled the request. */
    CANCELLED,
    /** A bug or an unexpected state: the message carries only an id to find it in the log. */
    INTERNAL
}
