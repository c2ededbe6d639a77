package dev.riffle.cli.serve;

import dev.riffle.cli.option.StatementOptions;
import dev.riffle.server.ServerRuntime;
import dev.riffle.server.session.ServerLimits;
import dev.riffle.server.statement.RunningStatements;

import dev.riffle.cli.option.ConsoleOption;
import dev.riffle.cli.option.FlussClientOptions;
import dev.riffle.cli.option.PgTlsOptions;
import dev.riffle.cli.process.ShutdownSignals;
import dev.riffle.cli.running.RunningGateways;
import dev.riffle.flight.FlightSqlServer;
import dev.riffle.gateway.Gateway;
import dev.riffle.pgwire.PgWireServer;
import dev.riffle.pgwire.auth.InvalidPasswordFileException;
import dev.riffle.pgwire.auth.PasswordFile;
import dev.riffle.server.principal.Auth;
import dev.riffle.server.session.Sessions;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.apache.fluss.config.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code riffle serve}: the HTTP gateway (with {@code POST /v1/sql}) over an existing Fluss
 * cluster, until Ctrl-C or SIGTERM; then it closes the gateway and exits 0.
 *
 * <p>Safe by default: a gateway that listens beyond loopback (the default, every interface) starts
 * only with {@code --auth basic}, or with {@code --auth none} said explicitly, which it then warns
 * about. Anyone who reaches an unauthenticated port can write and drop tables.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve the HTTP gateway (REST + SQL, JSON and Arrow) over an existing Fluss cluster until Ctrl-C.")
public final class ServeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9123",
            description = "Fluss bootstrap servers (default: ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Mixin
    FlussClientOptions clientOptions = new FlussClientOptions();

    @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "8080",
            description = "The gateway's port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
    int httpPort;

    @Option(names = "--flight-port", paramLabel = "PORT", defaultValue = "31337",
            description = "The Arrow Flight SQL port, on the same host and with the same --auth (default: "
                    + "${DEFAULT-VALUE}; 0 picks a free one; -1 serves no Flight SQL).")
    int flightPort;

    @Option(names = "--pg-port", paramLabel = "PORT", defaultValue = "15432",
            description = "The PostgreSQL protocol port (psql, PostgreSQL drivers), on the same host and with the same "
                    + "--auth (basic: a cleartext password, or SCRAM-SHA-256 with --pg-password-file; either way passed "
                    + "to Fluss as SASL/PLAIN) (default: ${DEFAULT-VALUE}; 0 picks a free one; -1 serves no PostgreSQL "
                    + "protocol).")
    int pgPort;

    @CommandLine.Mixin
    PgTlsOptions pgTls;

    @Option(names = "--pg-password-file", paramLabel = "FILE",
            description = "With --auth basic: PostgreSQL clients log in with SCRAM-SHA-256 (no password on the wire) as "
                    + "the users of this file, one user:password a line; the password opens the user's Fluss "
                    + "SASL/PLAIN connection, which is why the server must know it.")
    Optional<Path> pgPasswordFile;

    @Option(names = "--flight-tls-cert", paramLabel = "PEM",
            description = "Serve Flight SQL over TLS with this certificate chain (with --flight-tls-key).")
    Optional<java.io.File> flightTlsCert;

    @Option(names = "--flight-tls-key", paramLabel = "PEM",
            description = "The private key of --flight-tls-cert.")
    Optional<java.io.File> flightTlsKey;

    @Option(names = "--http-host", paramLabel = "HOST", defaultValue = "0.0.0.0",
            description = "The interface to listen on (default: ${DEFAULT-VALUE}, every interface, which needs "
                    + "--auth).")
    String httpHost;

    @Option(names = "--auth", paramLabel = "none|basic",
            description = "How /v1 requests authenticate: basic (HTTP Basic, passed to Fluss as SASL/PLAIN, so "
                    + "Fluss ACLs decide) or none. Required when --http-host is not a loopback address.")
    Optional<String> auth;

    @Option(names = "--service-user", paramLabel = "USER",
            description = "With --auth basic: the Fluss SASL/PLAIN user of the gateway's own connection (health "
                    + "checks, lake settings); its password is read from the environment variable "
                    + SERVICE_PASSWORD_ENV + ".")
    Optional<String> serviceUser;

    @Mixin
    ConsoleOption console;

    @Mixin
    StatementOptions statementOptions;

    @Mixin
    dev.riffle.cli.option.McpOptions mcp = new dev.riffle.cli.option.McpOptions();

    /** Where {@code --service-user}'s password comes from (not the command line, which others can read). */
    public static final String SERVICE_PASSWORD_ENV = "RIFFLE_SERVICE_PASSWORD";
    /**
     * The key Flight SQL tickets are signed with: give every instance behind one load balancer the
     * same key so that any of them serves the endpoints another's FlightInfo names.
     */
    public static final String TICKET_KEY_ENV = "RIFFLE_FLIGHT_TICKET_KEY";

    /** Where environment variables are read (tests give their own). */
    Function<String, String> environment = System::getenv;

    private final CountDownLatch stop = new CountDownLatch(1);
    private volatile Gateway running;

    @Override
    public Integer call() throws Exception {
        if (httpPort < 0 || httpPort > 65535) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--http-port must be between 0 and 65535, got " + httpPort);
        }
        Auth mode = authMode();
        PrintWriter out = spec.commandLine().getOut();
        if (mode == Auth.NONE && !loopback(httpHost)) {
            spec.commandLine().getErr().println("WARNING: serving on " + httpHost + " without authentication "
                    + "(--auth none): anyone who reaches this port can read, write and drop tables.");
            spec.commandLine().getErr().flush();
        }
        if (flightPort < -1 || flightPort > 65535) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--flight-port must be between 0 and 65535 (or -1 for none), got " + flightPort);
        }
        if (pgPort < -1 || pgPort > 65535) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--pg-port must be between 0 and 65535 (or -1 for none), got " + pgPort);
        }
        if (flightTlsCert.isPresent() != flightTlsKey.isPresent()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--flight-tls-cert and --flight-tls-key go together");
        }
        pgTls.check(spec.commandLine());
        statementOptions.check(spec.commandLine());
        if (pgPort < 0 && (pgPasswordFile.isPresent() || pgTls.certificateChain().isPresent())) {
            throw new CommandLine.ParameterException(spec.commandLine(), (pgPasswordFile.isPresent()
                    ? "--pg-password-file" : "--pg-tls-cert") + " is for the PostgreSQL protocol, which --pg-port -1 "
                    + "turns off");
        }
        Optional<PasswordFile> pgUsers = pgPasswordFile(mode);
        ShutdownSignals.onStop(stop::countDown);
        Configuration clientConfig = clientConfig(mode);
        ServerLimits limits = statementOptions.limits(ServerLimits.DEFAULT);
        try (RunningStatements statements = statementOptions.statements();
                // One runtime for every surface: a principal has one session and one Fluss connection,
                // whether it comes in over HTTP, Flight SQL or PostgreSQL.
                ServerRuntime runtime = ServerRuntime.builder("riffle serve").clientConfig(clientConfig).auth(mode)
                        .limits(limits).statements(statements).open();
                Gateway gateway = Gateway.builder().sharing(runtime).host(httpHost).port(httpPort)
                        .console(console.mode()).mcp(mcp.limits(spec.commandLine())).start();
                AutoCloseable flight = flightPort < 0 ? () -> { } : startFlight(runtime, gateway);
                AutoCloseable pg = pgPort < 0 ? () -> { } : startPg(runtime, pgUsers);
                // One-shot commands of this cluster (riffle sql -e, read, tier --status) answer through the
                // gateway; not when it wants credentials they do not have.
                RunningGateways.Publication published = mode == Auth.NONE
                        ? RunningGateways.atDefaultPlace().publish(bootstrapServers, gateway.url()) : () -> { }) {
            running = gateway;
            out.println("Riffle over Fluss " + bootstrapServers
                    + (mode == Auth.BASIC ? " (HTTP Basic, Flight SQL and PostgreSQL logins as Fluss SASL/PLAIN users)"
                            : " (no authentication)"));
            out.println("  HTTP gateway:  " + gateway.url() + "   (routes: " + gateway.url() + "/openapi.json)");
            out.println("  SQL over HTTP: POST " + gateway.url() + "/v1/sql");
            out.println("  MCP:           " + gateway.mcpUrl() + (mcp.limits(spec.commandLine()).writesAllowed()
                    ? "   (writes allowed)" : "   (read-only)"));
            gateway.consoleUrl().ifPresent(url -> out.println("  Web console:   " + url
                    + (console.mode() == dev.riffle.gateway.console.ConsoleMode.READ_ONLY ? "   (read-only)" : "")));
            out.println("  JDBC URL:      " + gateway.jdbcUrl());
            if (flight instanceof FlightSqlServer server) {
                out.println("  Flight SQL:    " + server.location().getUri() + "   (JDBC: " + server.jdbcUrl() + ")");
            }
            if (pg instanceof PgWireServer server) {
                out.println("  PostgreSQL:    " + server.psqlCommand() + "   (JDBC: " + server.jdbcUrl() + ")");
                if (pgUsers.isPresent() || server.encrypts()) {
                    String logins = pgUsers.isPresent() ? "SCRAM-SHA-256 logins (users of " + pgPasswordFile.get() + ")"
                            : mode == Auth.BASIC ? "cleartext-password logins" : "no logins";
                    out.println("                 " + logins + (server.encrypts() ? ", TLS only" : ", no TLS"));
                }
            }
            out.println("Press Ctrl-C to stop.");
            out.flush();
            stop.await();
            out.println("Stopping...");
            out.flush();
        } finally {
            running = null;
        }
        out.println("Stopped.");
        out.flush();
        return 0;
    }

    private FlightSqlServer startFlight(ServerRuntime runtime, Gateway gateway) {
        FlightSqlServer.Builder flight = FlightSqlServer.builder().sharing(runtime).host(httpHost)
                .port(flightPort).meterRegistry(gateway.meterRegistry());
        String key = environment.apply(TICKET_KEY_ENV);
        if (key != null && !key.isEmpty()) {
            flight.ticketKey(key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (flightTlsCert.isPresent()) {
            flight.tls(flightTlsCert.get(), flightTlsKey.get());
        }
        return flight.start();
    }

    private PgWireServer startPg(ServerRuntime runtime, Optional<PasswordFile> users) {
        PgWireServer.Builder pg = PgWireServer.builder().sharing(runtime).host(httpHost).port(pgPort);
        users.ifPresent(pg::scramUsers);
        if (pgTls.certificateChain().isPresent()) {
            pg.tls(pgTls.certificateChain().get(), pgTls.privateKey().get());
        }
        return pg.start();
    }

    /** {@code --pg-password-file}, read before anything starts; it needs {@code --auth basic}. */
    private Optional<PasswordFile> pgPasswordFile(Auth mode) {
        if (pgPasswordFile.isEmpty()) {
            return Optional.empty();
        }
        if (mode != Auth.BASIC) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--pg-password-file goes with --auth basic "
                    + "(SCRAM logins open each user's own Fluss SASL/PLAIN connection)");
        }
        try {
            return Optional.of(PasswordFile.read(pgPasswordFile.get()));
        } catch (IOException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Cannot read --pg-password-file "
                    + pgPasswordFile.get() + ": " + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()));
        } catch (InvalidPasswordFileException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** {@code --auth}, checked; refused when missing for a host beyond loopback. */
    private Auth authMode() {
        if (auth.isEmpty()) {
            if (!loopback(httpHost)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "riffle serve listens on " + httpHost
                        + ", beyond loopback: give --auth basic (Fluss users and ACLs), or --auth none to serve "
                        + "without authentication, or --http-host 127.0.0.1");
            }
            return Auth.NONE;
        }
        Auth mode = switch (auth.get()) {
            case "none" -> Auth.NONE;
            case "basic" -> Auth.BASIC;
            default -> throw new CommandLine.ParameterException(spec.commandLine(),
                    "--auth takes none or basic, got '" + auth.get() + "'");
        };
        if (serviceUser.isPresent() && mode != Auth.BASIC) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--service-user goes with --auth basic");
        }
        return mode;
    }

    /** The gateway's own Fluss client settings: the bootstrap servers, and the service user's credentials. */
    private Configuration clientConfig(Auth mode) {
        Configuration conf = clientOptions.clientConfig(bootstrapServers);
        if (mode != Auth.BASIC || serviceUser.isEmpty()) {
            return conf;
        }
        String password = environment.apply(SERVICE_PASSWORD_ENV);
        if (password == null || password.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--service-user " + serviceUser.get()
                    + " needs its password in the environment variable " + SERVICE_PASSWORD_ENV);
        }
        return Sessions.principalConfig(conf, serviceUser.get(), password);
    }

    /** Whether {@code host} names only this machine (a name that does not resolve is not). */
    static boolean loopback(String host) {
        try {
            for (InetAddress address : InetAddress.getAllByName(host)) {
                if (!address.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** The gateway while it serves (for tests that run the command in-process), else null. */
    public Gateway gateway() {
        return running;
    }

    /** Asks a running command to stop, as Ctrl-C does. */
    public void stop() {
        stop.countDown();
    }
}
