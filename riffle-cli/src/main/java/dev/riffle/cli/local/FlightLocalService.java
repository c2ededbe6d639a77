package dev.riffle.cli.local;


import dev.riffle.flight.FlightSqlServer;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.LocalService;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Starts the Arrow Flight SQL server with {@code riffle local}, on 127.0.0.1 port 31337 unless the
 * options say otherwise ({@code flight.port}; 0 picks a free one).
 */
public final class FlightLocalService implements LocalService {
    public static final String PORT_OPTION = "flight.port";
    public static final int DEFAULT_PORT = 31337;

    @Override
    public String name() {
        return "Flight SQL server";
    }

    @Override
    public Running start(LocalCluster cluster, Map<String, String> options) {
        return start(cluster, options, new Shared(Map.of()));
    }

    /** As {@link #start(LocalCluster, Map)}, counting its SQL statements with the other surfaces', under their limits. */
    @Override
    public Running start(LocalCluster cluster, Map<String, String> options, Shared shared) {
        String value = options.getOrDefault(PORT_OPTION, Integer.toString(DEFAULT_PORT));
        int port;
        try {
            port = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PORT_OPTION + " must be a port number, got '" + value + "'");
        }
        FlightSqlServer.Builder builder = LocalSurfaces.serve(FlightSqlServer.builder(), cluster, shared)
                .host("127.0.0.1").port(port);
        FlightSqlServer flight = builder.start();
        Map<String, String> addresses = new LinkedHashMap<>();
        addresses.put("Flight SQL", flight.location().getUri().toString());
        addresses.put("Flight SQL JDBC URL", flight.jdbcUrl());
        return new Running(addresses, flight);
    }
}
