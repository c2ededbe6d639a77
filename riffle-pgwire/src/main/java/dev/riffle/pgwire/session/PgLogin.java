package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.auth.MalformedScramMessageException;
import dev.riffle.pgwire.auth.ScramSha256Authenticator;
import dev.riffle.pgwire.error.PgException;
import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.protocol.FrontendMessage;
import dev.riffle.pgwire.protocol.ProtocolException;
import dev.riffle.server.principal.Credentials;
import dev.riffle.server.session.Sessions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The login of one connection, up to its first ReadyForQuery's prerequisites: the startup message
 * (or an SSLRequest, GSSENCRequest or CancelRequest before it), then a cleartext password or a
 * SCRAM-SHA-256 exchange, each opening the user's own Fluss SASL/PLAIN connection (Fluss accepting
 * it is the check). Every refused login gets the one answer {@code 28P01}, so a client cannot tell
 * an unknown user from a wrong password.
 *
 * <pre>{@code
 * PgLogin login = new PgLogin(context, out, session::loggedIn, session::fatal, session::close);
 * login.handle(startupMessage);
 * }</pre>
 */
final class PgLogin {
    private static final Logger LOG = LoggerFactory.getLogger(PgLogin.class);

    /** What a login that succeeded hands the session. */
    interface LoggedIn {
        /**
         * @param credentials the user's, when the server takes logins (empty: it runs without authentication)
         * @param settings the session's settings from its startup parameters
         */
        void loggedIn(String user, Optional<Credentials> credentials, SessionSettings settings);
    }

    /** How the connection ends: a FATAL error, or a close without one. */
    interface Ending {
        void fatal(BackendMessage.ErrorResponse error);
    }

    private final PgServerContext context;
    private final Outbound out;
    private final LoggedIn loggedIn;
    private final Ending ending;
    private final Runnable closed;
    /** Whether the connection speaks TLS (set before the startup message arrives). */
    private boolean encrypted;
    private boolean startupDone;
    private String user = "";
    private SessionSettings settings = SessionSettings.startup(Map.of());
    /** The SCRAM exchange under way, once the client chose its mechanism. */
    private Optional<ScramSha256Authenticator> scram = Optional.empty();

    PgLogin(PgServerContext context, Outbound out, LoggedIn loggedIn, Ending ending, Runnable closed) {
        this.context = requireNonNull(context, "context is null");
        this.out = requireNonNull(out, "out is null");
        this.loggedIn = requireNonNull(loggedIn, "loggedIn is null");
        this.ending = requireNonNull(ending, "ending is null");
        this.closed = requireNonNull(closed, "closed is null");
    }

    /** Called (on the worker, before the startup message) once the connection speaks TLS. */
    void encrypted() {
        encrypted = true;
    }

    /** The user the startup message named ("" before it). */
    String user() {
        return user;
    }

    void handle(FrontendMessage message) {
        if (startupDone) {
            authenticate(message);
        } else {
            startup(message);
        }
    }

    private void startup(FrontendMessage message) {
        if (message instanceof FrontendMessage.SslRequest || message instanceof FrontendMessage.GssEncRequest) {
            // TLS, when configured, is taken up by the connection handler; here it is refused (or asked again).
            out.send(new BackendMessage.EncryptionRefused());
            out.flush();
        } else if (message instanceof FrontendMessage.CancelRequest cancel) {
            context.cancels().cancel(cancel.processId(), cancel.secretKey());
            out.closeConnection();
            closed.run();
        } else if (message instanceof FrontendMessage.Startup startup) {
            Optional<String> name = startup.parameter("user");
            if (name.isEmpty() || name.get().isEmpty()) {
                fatal("28000", "no PostgreSQL user name specified in startup packet");
                return;
            }
            user = name.get();
            if (context.tls().isPresent() && !encrypted) {
                // As a pg_hba.conf of hostssl lines only: with TLS configured, passwords never cross in the clear.
                fatal("28000", "this server accepts only TLS connections; connect with sslmode=require");
                return;
            }
            settings = SessionSettings.startup(startup.parameters());
            if (!context.sessions().authenticates()) {
                loggedIn.loggedIn(user, Optional.empty(), settings);
                return;
            }
            startupDone = true;
            if (context.scramUsers().isPresent()) {
                out.send(new BackendMessage.AuthenticationSasl(List.of(ScramSha256Authenticator.MECHANISM)));
            } else {
                out.send(new BackendMessage.AuthenticationCleartextPassword());
            }
            out.flush();
        } else {
            fatal(PgException.PROTOCOL_VIOLATION, "Expected a startup message, got " + message);
        }
    }

    private void authenticate(FrontendMessage message) {
        if (!(message instanceof FrontendMessage.AuthenticationResponse response)) {
            fatal(PgException.PROTOCOL_VIOLATION, "Expected a password message, got " + message);
            return;
        }
        try {
            if (context.scramUsers().isEmpty()) {
                login(response.password(), Optional.empty());
            } else if (scram.isEmpty()) {
                FrontendMessage.AuthenticationResponse.SaslInitialResponse initial = response.saslInitialResponse();
                if (!initial.mechanism().equals(ScramSha256Authenticator.MECHANISM)) {
                    fatal(PgException.PROTOCOL_VIOLATION, "client selected an invalid SASL authentication mechanism '"
                            + initial.mechanism() + "' (this server offers " + ScramSha256Authenticator.MECHANISM + ")");
                    return;
                }
                scram = Optional.of(context.scramUsers().get().authenticator(user));
                byte[] serverFirst = scram.get().serverFirstMessage(initial.data().orElseThrow(
                        () -> new MalformedScramMessageException("the SASLInitialResponse has no client-first-message")));
                out.send(new BackendMessage.AuthenticationSaslContinue(serverFirst));
                out.flush();
            } else {
                scramFinal(response.saslResponse());
            }
        } catch (MalformedScramMessageException | ProtocolException e) {
            LOG.info("PostgreSQL login of user '{}' broke off: {}", user, e.getMessage());
            fatal(PgException.PROTOCOL_VIOLATION, e.getMessage());
        }
    }

    private void scramFinal(byte[] clientFinal) {
        Optional<byte[]> serverFinal = scram.get().serverFinalMessage(clientFinal);
        Optional<String> password = context.scramUsers().get().password(user);
        if (serverFinal.isEmpty() || password.isEmpty()) {
            LOG.info("PostgreSQL SCRAM login of user '{}' refused: {}", user,
                    password.isEmpty() ? "not a user of the password file" : "wrong proof");
            refuse();
            return;
        }
        login(password.get(), serverFinal);
    }

    /**
     * Opens the user's own Fluss SASL/PLAIN connection with {@code password}: Fluss accepting it is
     * the check for a cleartext password, and still decides after a verified SCRAM proof (a user of
     * the password file that Fluss does not know, or knows by another password, is refused alike).
     */
    private void login(String password, Optional<byte[]> serverFinal) {
        Credentials given = new Credentials(user, password);
        try (Sessions.Lease ignored = context.sessions().acquire(Optional.of(given))) {
            // Opening the principal's session is the check: Fluss accepted the SASL/PLAIN login.
        } catch (RuntimeException e) {
            LOG.info("PostgreSQL login of user '{}' refused: {}", user, e.getMessage());
            refuse();
            return;
        }
        serverFinal.ifPresent(data -> out.send(new BackendMessage.AuthenticationSaslFinal(data)));
        loggedIn.loggedIn(user, Optional.of(given), settings);
    }

    private void refuse() {
        fatal("28P01", "password authentication failed for user \"" + user + "\"");
    }

    private void fatal(String sqlState, String message) {
        ending.fatal(new BackendMessage.ErrorResponse("FATAL", sqlState, message));
    }
}
