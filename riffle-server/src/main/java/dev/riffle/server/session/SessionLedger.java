package dev.riffle.server.session;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a server's sessions hold, counted: sessions opened and closed, and the table handles and
 * connections they opened and closed. An operator (and a test) can then check that closing a
 * principal's session let go of everything it held.
 */
final class SessionLedger {
    private final Set<Session> live = ConcurrentHashMap.newKeySet();
    private final AtomicLong opened = new AtomicLong();
    private final AtomicLong closed = new AtomicLong();
    private final AtomicLong closedTablesOpened = new AtomicLong();
    private final AtomicLong closedTablesClosed = new AtomicLong();
    private final AtomicLong connectionsClosed = new AtomicLong();

    void opened(Session session) {
        opened.incrementAndGet();
        live.add(session);
    }

    void closed(Session session, boolean connectionClosed) {
        if (live.remove(session)) {
            closed.incrementAndGet();
            closedTablesOpened.addAndGet(session.handles().tablesOpened());
            closedTablesClosed.addAndGet(session.handles().tablesClosed());
            if (connectionClosed) {
                connectionsClosed.incrementAndGet();
            }
        }
    }

    Sessions.Counts counts() {
        long tablesOpened = closedTablesOpened.get();
        long tablesClosed = closedTablesClosed.get();
        for (Session session : live) {
            tablesOpened += session.handles().tablesOpened();
            tablesClosed += session.handles().tablesClosed();
        }
        return new Sessions.Counts(live.size(), opened.get(), closed.get(), tablesOpened, tablesClosed,
                connectionsClosed.get());
    }
}
