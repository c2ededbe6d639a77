package dev.riffle.pgwire.session;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The sessions a CancelRequest can reach, by the process id and secret key each was given in
 * BackendKeyData. A request with a wrong secret cancels nothing (as in PostgreSQL, it is not
 * answered either way).
 *
 * <pre>{@code
 * CancelRegistry.Key key = registry.register(session);
 * registry.cancel(key.processId(), key.secretKey());
 * }</pre>
 */
public final class CancelRegistry {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CancelRegistry.class);

    /** A session's identity for cancel requests. */
    public record Key(int processId, int secretKey) {}

    private final SecureRandom random = new SecureRandom();
    private final AtomicInteger nextProcessId = new AtomicInteger(1000);
    private final Map<Integer, Entry> sessions = new ConcurrentHashMap<>();

    private record Entry(int secretKey, PgSession session) {}

    Key register(PgSession session) {
        int processId = nextProcessId.incrementAndGet();
        int secret = random.nextInt();
        sessions.put(processId, new Entry(secret, session));
        return new Key(processId, secret);
    }

    void unregister(Key key) {
        sessions.remove(key.processId());
    }

    /** Cancels what the session runs now, if the key matches; whether it did. */
    boolean cancel(int processId, int secretKey) {
        Entry entry = sessions.get(processId);
        if (entry == null || entry.secretKey() != secretKey) {
            LOG.info("Cancel request for process {} ignored: no session with that process id and key", processId);
            return false;
        }
        LOG.info("Cancel request for process {}", processId);
        entry.session().cancelRunning();
        return true;
    }

    /**
     * Cancels (or, with {@code terminate}, ends) what backend {@code processId} runs, at the request
     * of {@code caller}'s statement ({@code pg_cancel_backend}, {@code pg_terminate_backend}): a
     * user may stop its own backends; without logins every backend is the server's.
     *
     * @return whether there is such a backend
     * @throws SecurityException when the backend is another user's
     */
    boolean cancelFrom(PgSession caller, int processId, boolean terminate) {
        Entry entry = sessions.get(processId);
        if (entry == null) {
            return false;
        }
        PgSession target = entry.session();
        if (caller.authenticated() && !caller.user().equals(target.user())) {
            throw new SecurityException("permission denied to " + (terminate ? "terminate process" : "cancel query")
                    + ": backend " + processId + " is user \"" + target.user() + "\"'s; a user may stop only its own");
        }
        LOG.info("Backend {} of user '{}' {} backend {}", caller.host().backendPid(), caller.user(),
                terminate ? "terminates" : "cancels the query of", processId);
        if (terminate) {
            target.terminate();
        } else {
            target.cancelRunning();
        }
        return true;
    }

    /** How many sessions are connected. */
    public int size() {
        return sessions.size();
    }
}
