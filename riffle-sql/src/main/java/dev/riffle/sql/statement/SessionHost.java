package dev.riffle.sql.statement;

import dev.riffle.sql.exec.SessionFunctions;

/**
 * What the server a statement runs in says about the statement's session, for the functions that
 * ask about it ({@link SessionFunctions}): a PostgreSQL backend's process id, and cancelling or
 * ending another backend. A server puts it in a statement's context under {@link #KEY}; a
 * statement run through {@code jdbc:riffle} alone has none, and those functions fail there.
 *
 * <pre>{@code
 * SELECT pg_cancel_backend(1042)   -- true when backend 1042 ran a statement and it is cancelled
 * }</pre>
 */
public interface SessionHost {
    /** Where a server puts the host in a statement's context. */
    String KEY = "riffle.sessionHost";

    /** The process id of the session's backend. */
    int backendPid();

    /**
     * Cancels the statement backend {@code pid} runs now.
     *
     * @return whether there was such a backend (running a statement or not)
     * @throws SecurityException when the session's user may not cancel that backend's statements
     */
    boolean cancelBackend(int pid);

    /**
     * Cancels what backend {@code pid} runs and closes its connection.
     *
     * @return whether there was such a backend
     * @throws SecurityException when the session's user may not end that backend
     */
    boolean terminateBackend(int pid);

    /** The schemas unqualified names resolve in, in order ({@code search_path}, without {@code pg_catalog}). */
    java.util.List<String> searchPath();

    /** The user the session logged in as. */
    String user();

    /** Every setting of the session and its value ({@code pg_settings}). */
    java.util.Map<String, String> settings();

    /** The session's value of a setting ({@code current_setting(name)}), empty for an unknown one. */
    java.util.Optional<String> setting(String name);

    /**
     * Sets a setting of the session ({@code set_config(name, value, false)}), as {@code SET} does.
     *
     * @return the value set
     * @throws IllegalArgumentException for a value the setting does not take
     */
    String set(String name, String value);
}
