package dev.riffle.pgwire.protocol;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a PostgreSQL client sends (protocol v3), decoded by {@link FrontendDecoder}: the untyped
 * startup-phase packets (SSL and GSS encryption requests, the startup message, a cancel request)
 * and the typed messages of the simple and extended query protocols.
 *
 * <pre>{@code
 * if (message instanceof FrontendMessage.Query query) { run(query.sql()); }
 * }</pre>
 */
public sealed interface FrontendMessage {

    /** Asks for TLS before the startup message (answered with one byte, {@code N} or {@code S}). */
    record SslRequest() implements FrontendMessage {}

    /** Asks for GSSAPI encryption before the startup message (answered {@code N}). */
    record GssEncRequest() implements FrontendMessage {}

    /** The first message of a session: protocol version and parameters (user, database, options). */
    record Startup(int protocolVersion, Map<String, String> parameters) implements FrontendMessage {
        public Startup {
            parameters = Map.copyOf(requireNonNull(parameters, "parameters is null"));
        }

        public Optional<String> parameter(String name) {
            return Optional.ofNullable(parameters.get(name));
        }
    }

    /** Sent on a fresh connection: cancel what the session with this process id and secret runs. */
    record CancelRequest(int processId, int secretKey) implements FrontendMessage {}

    /**
     * A {@code 'p'} message: the answer to an authentication request. Its body is a password
     * (after AuthenticationCleartextPassword), a SASLInitialResponse (after AuthenticationSASL) or
     * a SASLResponse (after AuthenticationSASLContinue); only the server's request says which, so
     * the session reads it with {@link #password()}, {@link #saslInitialResponse()} or
     * {@link #saslResponse()}.
     */
    record AuthenticationResponse(byte[] body) implements FrontendMessage {
        public AuthenticationResponse {
            body = requireNonNull(body, "body is null").clone();
        }

        @Override
        public byte[] body() {
            return body.clone();
        }

        /** The body as a cleartext password: a NUL-terminated string. */
        public String password() {
            int end = nul(0, "the password");
            return new String(body, 0, end, StandardCharsets.UTF_8);
        }

        /** The body as a SASLInitialResponse: the mechanism, then the client's first message (if any). */
        public SaslInitialResponse saslInitialResponse() {
            int end = nul(0, "the SASL mechanism name");
            String mechanism = new String(body, 0, end, StandardCharsets.UTF_8);
            if (body.length - end - 1 < 4) {
                throw new ProtocolException("08P01", "The SASLInitialResponse ends before the length of its data");
            }
            int length = ByteBuffer.wrap(body, end + 1, 4).getInt();
            int start = end + 5;
            if (length == -1 && start == body.length) {
                return new SaslInitialResponse(mechanism, Optional.empty());
            }
            if (length != body.length - start) {
                throw new ProtocolException("08P01", "The SASLInitialResponse claims " + length
                        + " bytes of data but holds " + (body.length - start));
            }
            return new SaslInitialResponse(mechanism, Optional.of(Arrays.copyOfRange(body, start, body.length)));
        }

        /** The body as a SASLResponse: the mechanism's next message, as it is. */
        public byte[] saslResponse() {
            return body.clone();
        }

        private int nul(int from, String what) {
            for (int i = from; i < body.length; i++) {
                if (body[i] == 0) {
                    return i;
                }
            }
            throw new ProtocolException("08P01", "The message ends inside " + what + " (no terminating NUL)");
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof AuthenticationResponse that && Arrays.equals(body, that.body);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(body);
        }

        @Override
        public String toString() {
            return "AuthenticationResponse[" + body.length + " bytes]"; // may be a password
        }

        /** The first message of a SASL exchange: the mechanism the client chose and its first data. */
        public record SaslInitialResponse(String mechanism, Optional<byte[]> data) {
            public SaslInitialResponse {
                requireNonNull(mechanism, "mechanism is null");
                requireNonNull(data, "data is null");
            }
        }
    }

    /** A simple query: one or more statements separated by {@code ;}. */
    record Query(String sql) implements FrontendMessage {
        public Query {
            requireNonNull(sql, "sql is null");
        }
    }

    /** Prepares {@code sql} as statement {@code name} ("" is the unnamed statement); an OID of 0 leaves a parameter's type to the server. */
    record Parse(String name, String sql, List<Integer> parameterTypes) implements FrontendMessage {
        public Parse {
            requireNonNull(name, "name is null");
            requireNonNull(sql, "sql is null");
            parameterTypes = List.copyOf(parameterTypes);
        }
    }

    /**
     * Binds a prepared statement's parameters into portal {@code portal}.
     *
     * @param parameterFormats none (all text), one (for all) or one per parameter: 0 text, 1 binary
     * @param parameters each value's bytes, or empty for NULL
     * @param resultFormats none (all text), one (for all) or one per column
     */
    record Bind(String portal, String statement, List<Short> parameterFormats, List<Optional<byte[]>> parameters,
            List<Short> resultFormats) implements FrontendMessage {
        public Bind {
            requireNonNull(portal, "portal is null");
            requireNonNull(statement, "statement is null");
            parameterFormats = List.copyOf(parameterFormats);
            parameters = List.copyOf(parameters);
            resultFormats = List.copyOf(resultFormats);
        }

        @Override
        public String toString() {
            return "Bind[portal=" + portal + ", statement=" + statement + ", parameters=" + parameters.size() + "]";
        }
    }

    /** Asks what a statement ({@code S}) or portal ({@code P}) takes and answers. */
    record Describe(char kind, String name) implements FrontendMessage {
        public Describe {
            requireNonNull(name, "name is null");
        }
    }

    /** Runs a portal, returning at most {@code maxRows} rows (0: all). */
    record Execute(String portal, int maxRows) implements FrontendMessage {
        public Execute {
            requireNonNull(portal, "portal is null");
        }
    }

    /** Closes a statement ({@code S}) or portal ({@code P}). */
    record Close(char kind, String name) implements FrontendMessage {
        public Close {
            requireNonNull(name, "name is null");
        }
    }

    /** Ends an extended-query batch: the server answers ReadyForQuery. */
    record Sync() implements FrontendMessage {}

    /** Asks the server to send what it has buffered. */
    record Flush() implements FrontendMessage {}

    /** The client is leaving. */
    record Terminate() implements FrontendMessage {}

    /** A chunk of COPY FROM STDIN data (rows need not align with messages). */
    record CopyData(byte[] data) implements FrontendMessage {
        public CopyData {
            requireNonNull(data, "data is null");
        }

        @Override
        public String toString() {
            return "CopyData[" + data.length + " bytes]";
        }
    }

    /** The client sent all of its COPY FROM STDIN data. */
    record CopyDone() implements FrontendMessage {}

    /** The client abandons its COPY FROM STDIN, saying why. */
    record CopyFail(String message) implements FrontendMessage {
        public CopyFail {
            requireNonNull(message, "message is null");
        }
    }

    /** A typed message Riffle does not serve (function calls, ...): answered with an error. */
    record Unsupported(char type) implements FrontendMessage {}

}
