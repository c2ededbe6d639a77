package dev.riffle.server.principal;

/**
 * How a server authenticates its clients ({@code --auth none|basic}), the same for every surface
 * (HTTP, Flight SQL, PostgreSQL).
 */
public enum Auth {
    /** No authentication: every request runs on the server's own Fluss connection. */
    NONE,
    /**
     * A user and password (HTTP Basic, the Flight SQL handshake, a PostgreSQL password message),
     * passed through to Fluss SASL/PLAIN: each user's requests run on that user's own connection,
     * so Fluss ACLs decide.
     */
    BASIC
}
