package dev.riffle.sql.pgcatalog;

import dev.riffle.sql.statement.SessionHost;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.DataContext;

/**
 * What the catalogs say of the statement's session: its user and settings, from the server's
 * {@link SessionHost} when there is one (the PostgreSQL port), else the defaults
 * ({@code jdbc:riffle} with {@code dialect=postgresql} alone).
 */
final class PgSessions {
    /** The one database a client connects to, whatever name it gives. */
    static final String DATABASE = "riffle";
    /** The settings every session has, beside its own. */
    private static final Map<String, String> SERVER = Map.of("max_index_keys", "32", "max_identifier_length", "63",
            "server_version_num", "140000", "block_size", "8192", "integer_datetimes", "on", "lc_collate", "C",
            "lc_ctype", "C", "max_connections", "200");

    private PgSessions() {}

    static String user(DataContext root) {
        return root.get(SessionHost.KEY) instanceof SessionHost host ? host.user() : DATABASE;
    }

    static Map<String, String> settings(DataContext root) {
        Map<String, String> settings = new TreeMap<>(SERVER);
        if (root.get(SessionHost.KEY) instanceof SessionHost host) {
            settings.putAll(host.settings());
        }
        return settings;
    }
}
