package dev.riffle.server.principal;

import static java.util.Objects.requireNonNull;

/**
 * A user and password a client authenticated with (HTTP Basic, the Flight SQL handshake, a
 * PostgreSQL password message), passed through to Fluss as SASL/PLAIN.
 *
 * <pre>{@code
 * Credentials alice = new Credentials("alice", "secret");
 * }</pre>
 */
public record Credentials(String user, String password) {
    public Credentials {
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
    }

    @Override
    public String toString() {
        return "Credentials[user=" + user + "]"; // never the password
    }
}
