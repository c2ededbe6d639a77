package dev.riffle.pgwire.protocol;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * What the server sends a PostgreSQL client (protocol v3), encoded by {@link BackendEncoder}.
 *
 * <pre>{@code
 * channel.write(new BackendMessage.CommandComplete("SELECT 3"));
 * channel.writeAndFlush(new BackendMessage.ReadyForQuery(TransactionStatus.IDLE));
 * }</pre>
 */
public sealed interface BackendMessage {

    /** The one-byte answer {@code N} to an SSL or GSS encryption request: not supported (or not configured). */
    record EncryptionRefused() implements BackendMessage {}

    /** The one-byte answer {@code S} to an SSL request: the TLS handshake follows. */
    record EncryptionAccepted() implements BackendMessage {}

    record AuthenticationOk() implements BackendMessage {}

    /** Asks for a SASL exchange with one of these mechanisms. */
    record AuthenticationSasl(List<String> mechanisms) implements BackendMessage {
        public AuthenticationSasl {
            mechanisms = List.copyOf(mechanisms);
        }
    }

    /** The server's next SASL message (SCRAM: the server-first-message). */
    record AuthenticationSaslContinue(byte[] data) implements BackendMessage {
        public AuthenticationSaslContinue {
            data = requireNonNull(data, "data is null").clone();
        }

        @Override
        public byte[] data() {
            return data.clone();
        }
    }

    /** The server's last SASL message (SCRAM: the server-final-message), before AuthenticationOk. */
    record AuthenticationSaslFinal(byte[] data) implements BackendMessage {
        public AuthenticationSaslFinal {
            data = requireNonNull(data, "data is null").clone();
        }

        @Override
        public byte[] data() {
            return data.clone();
        }
    }

    record AuthenticationCleartextPassword() implements BackendMessage {}

    record ParameterStatus(String name, String value) implements BackendMessage {
        public ParameterStatus {
            requireNonNull(name, "name is null");
            requireNonNull(value, "value is null");
        }
    }

    record BackendKeyData(int processId, int secretKey) implements BackendMessage {}

    record ReadyForQuery(TransactionStatus status) implements BackendMessage {
        public ReadyForQuery {
            requireNonNull(status, "status is null");
        }
    }

    /** One column of a RowDescription. */
    /** A RowDescription's column; {@code tableOid} and {@code attnum} 0 when it is no table's column. */
    record Column(String name, int tableOid, short attnum, int typeOid, short typeSize, int typeModifier,
            short format) {
        public Column {
            requireNonNull(name, "name is null");
        }
    }

    record RowDescription(List<Column> columns) implements BackendMessage {
        public RowDescription {
            columns = List.copyOf(columns);
        }
    }

    /**
     * One row: each cell's bytes in its column's format, empty for NULL. The encoder writes the
     * bytes as they are (the sink that made them owns their form).
     */
    record DataRow(List<Optional<byte[]>> cells) implements BackendMessage {
        public DataRow {
            requireNonNull(cells, "cells is null");
        }
    }

    record CommandComplete(String tag) implements BackendMessage {
        public CommandComplete {
            requireNonNull(tag, "tag is null");
        }
    }

    record EmptyQueryResponse() implements BackendMessage {}

    /** A notice: what the client should know of a statement that succeeded (severity NOTICE). */
    record NoticeResponse(String message) implements BackendMessage {
        public NoticeResponse {
            requireNonNull(message, "message is null");
        }
    }

    /**
     * An error (a notice is {@link NoticeResponse}).
     *
     * @param severity {@code ERROR} or {@code FATAL}
     * @param sqlState the five-character SQLSTATE
     */
    record ErrorResponse(String severity, String sqlState, String message) implements BackendMessage {
        public ErrorResponse {
            requireNonNull(severity, "severity is null");
            requireNonNull(sqlState, "sqlState is null");
            requireNonNull(message, "message is null");
            if (sqlState.length() != 5) {
                throw new IllegalArgumentException("A SQLSTATE has five characters, got '" + sqlState + "'");
            }
        }
    }

    record ParseComplete() implements BackendMessage {}

    record BindComplete() implements BackendMessage {}

    record CloseComplete() implements BackendMessage {}

    record NoData() implements BackendMessage {}

    record ParameterDescription(List<Integer> typeOids) implements BackendMessage {
        public ParameterDescription {
            typeOids = List.copyOf(typeOids);
        }
    }

    record PortalSuspended() implements BackendMessage {}

    /**
     * The server starts sending COPY TO STDOUT data (text format, as every column is).
     *
     * @param columns how many columns each row has
     */
    record CopyOutResponse(int columns) implements BackendMessage {}

    /** The server is ready for COPY FROM STDIN data of {@code columns} columns (text format). */
    record CopyInResponse(int columns) implements BackendMessage {}

    /** A piece of COPY TO STDOUT data: Riffle sends one row (one line) per message. */
    record CopyData(byte[] data) implements BackendMessage {
        public CopyData {
            requireNonNull(data, "data is null");
        }
    }

    /** The end of COPY TO STDOUT data. */
    record CopyDone() implements BackendMessage {}

    /** The transaction status ReadyForQuery reports. */
    enum TransactionStatus {
        IDLE('I'), IN_TRANSACTION('T'), FAILED('E');

        private final char code;

        TransactionStatus(char code) {
            this.code = code;
        }

        public char code() {
            return code;
        }
    }
}
