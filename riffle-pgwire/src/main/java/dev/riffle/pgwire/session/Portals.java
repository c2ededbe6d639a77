package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.error.PgException;
import dev.riffle.server.session.RequestContext;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A session's open portals by name ({@code ""} is the unnamed one). A portal holds its read until
 * it is closed, replaced, or its transaction ends; closing one here frees that read.
 *
 * <pre>{@code
 * portals.open("", new Portal(statement, values, formats));
 * boolean suspended = runner.run(portals.get(""), 100, false);
 * portals.close("");
 * }</pre>
 */
final class Portals {
    private final Map<String, Portal> byName = new HashMap<>();

    /** Opens {@code portal} as {@code name}, closing the portal that had that name. */
    void open(String name, Portal portal) {
        requireNonNull(portal, "portal is null");
        close(name);
        byName.put(name, portal);
    }

    /** @throws PgException 34000 when there is none of that name */
    Portal get(String name) {
        Portal portal = byName.get(name);
        if (portal == null) {
            throw new PgException("34000", name.isEmpty() ? "unnamed portal does not exist"
                    : "portal \"" + name + "\" does not exist");
        }
        return portal;
    }

    Optional<Portal> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** Closes the portal of that name, if there is one. */
    void close(String name) {
        Portal portal = byName.remove(name);
        if (portal != null) {
            portal.close();
        }
    }

    /** Closes every portal: the transaction they belong to ended. */
    void closeAll() {
        byName.values().forEach(Portal::close);
        byName.clear();
    }

    /** Closes every portal but {@code keep}: the statement running in it ended their transaction. */
    void closeAllExcept(Portal keep) {
        byName.values().removeIf(portal -> {
            if (portal != keep) {
                portal.close();
                return true;
            }
            return false;
        });
    }

    /** The requests of the portals that are being read (their rows are sent over several Executes). */
    List<RequestContext> reading() {
        return byName.values().stream().flatMap(portal -> portal.request().stream()).toList();
    }
}
