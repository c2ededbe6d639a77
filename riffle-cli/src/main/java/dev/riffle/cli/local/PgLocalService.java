package dev.riffle.cli.local;


import dev.riffle.local.LocalCluster;
import dev.riffle.local.LocalService;
import dev.riffle.pgwire.PgWireServer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Starts the PostgreSQL protocol server with {@code riffle local}, on 127.0.0.1 port 15432 unless
 * the options say otherwise ({@code pg.port}; 0 picks a free one), over TLS when the options name a
 * certificate chain and key ({@code pg.tls.cert}, {@code pg.tls.key}). The local cluster has no
 * SASL users, so clients log in without a password (trust), as with every local surface.
 */
public final class PgLocalService implements LocalService {
    public static final String PORT_OPTION = "pg.port";
    public static final String TLS_CERT_OPTION = "pg.tls.cert";
    public static final String TLS_KEY_OPTION = "pg.tls.key";

    @Override
    public String name() {
        return "PostgreSQL protocol server";
    }

    @Override
    public Running start(LocalCluster cluster, Map<String, String> options) {
        return start(cluster, options, new Shared(Map.of()));
    }

    /** As {@link #start(LocalCluster, Map)}, counting its SQL statements with the other surfaces', under their limits. */
    @Override
    public Running start(LocalCluster cluster, Map<String, String> options, Shared shared) {
        String value = options.getOrDefault(PORT_OPTION, Integer.toString(PgWireServer.DEFAULT_PORT));
        int port;
        try {
            port = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PORT_OPTION + " must be a port number, got '" + value + "'");
        }
        PgWireServer.Builder builder = LocalSurfaces.serve(PgWireServer.builder(), cluster, shared)
                .host("127.0.0.1").port(port);
        if (options.containsKey(TLS_CERT_OPTION) != options.containsKey(TLS_KEY_OPTION)) {
            throw new IllegalArgumentException(TLS_CERT_OPTION + " and " + TLS_KEY_OPTION + " go together");
        }
        if (options.containsKey(TLS_CERT_OPTION)) {
            builder.tls(Path.of(options.get(TLS_CERT_OPTION)), Path.of(options.get(TLS_KEY_OPTION)));
        }
        PgWireServer pg = builder.start();
        Map<String, String> addresses = new LinkedHashMap<>();
        addresses.put("PostgreSQL (psql)", pg.psqlCommand());
        addresses.put("PostgreSQL JDBC URL", pg.jdbcUrl());
        return new Running(addresses, pg);
    }
}
