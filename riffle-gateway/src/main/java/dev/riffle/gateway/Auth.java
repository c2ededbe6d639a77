package dev.riffle.gateway;

/** How the gateway authenticates its {@code /v1} requests ({@code --auth none|basic}). */
public enum Auth {
    /** No authentication: every request runs on the gateway's own Fluss connection. */
    NONE,
    /**
     * HTTP Basic, passed through to Fluss SASL/PLAIN: each user's requests run on that user's own
     * connection, so Fluss ACLs decide (401 for missing or rejected credentials, 403 when denied).
     */
    BASIC
}
