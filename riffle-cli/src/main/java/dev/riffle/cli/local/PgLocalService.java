package dev.riffle.cli.local;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.LocalService;
import dev.riffle.pgwire.PgWireServer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Starts the PostgreSQL protocol server with {@code riffle local}, on 127.0.0.1 port 15432 unless
 * the options say otherwise ({@code pg.port}; 0 picks a free one).
 */
public final class PgLocalService implements LocalService {
    public static final String PORT_OPTION = "pg.port";

    @Override
    public String name() {
        return "PostgreSQL protocol server";
    }

    @Override
    public Running start(LocalCluster cluster, Map<String, String> options) {
        String value = options.getOrDefault(PORT_OPTION, Integer.toString(PgWireServer.DEFAULT_PORT));
        int port;
        try {
            port = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PORT_OPTION + " must be a port number, got '" + value + "'");
        }
        PgWireServer pg = PgWireServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(port)
                .start();
        Map<String, String> addresses = new LinkedHashMap<>();
        addresses.put("PostgreSQL (psql)", pg.psqlCommand());
        addresses.put("PostgreSQL JDBC URL", pg.jdbcUrl());
        return new Running(addresses, pg);
    }
}
