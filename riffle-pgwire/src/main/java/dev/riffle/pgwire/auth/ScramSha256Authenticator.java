package dev.riffle.pgwire.auth;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;

/**
 * The server side of one SCRAM-SHA-256 exchange (RFC 5802, RFC 7677) as PostgreSQL runs it, without
 * channel binding: the client-first-message is answered with the server-first-message (the
 * combined nonce, the salt, the iteration count), then the client-final-message's proof is checked
 * (in constant time) and, when right, answered with the server-final-message that proves the
 * server knows the verifier. As in PostgreSQL, the user name inside the SCRAM messages is ignored
 * (libpq sends none): the user is the one of the startup message, whose verifier this exchange has.
 *
 * <p>An exchange for a user the server does not know is {@linkplain #doomed doomed}: it answers
 * with a salt made for that name and fails at the proof, as a wrong password does, so a client
 * cannot tell the two apart. A message that breaks the protocol is a
 * {@link MalformedScramMessageException}.
 *
 * <pre>{@code
 * ScramSha256Authenticator scram = ScramSha256Authenticator.of(verifier, serverNonce);
 * byte[] serverFirst = scram.serverFirstMessage(clientFirst);
 * Optional<byte[]> serverFinal = scram.serverFinalMessage(clientFinal); // empty: wrong password
 * }</pre>
 */
public final class ScramSha256Authenticator {
    /** The SASL mechanism's name, as AuthenticationSASL lists it. */
    public static final String MECHANISM = "SCRAM-SHA-256";

    private enum State { AWAITING_CLIENT_FIRST, AWAITING_CLIENT_FINAL, DONE }

    private final ScramVerifier verifier;
    private final boolean doomed;
    private final String serverNonce;
    private State state = State.AWAITING_CLIENT_FIRST;
    private String gs2Header;
    private String clientFirstBare;
    private String serverFirst;
    private String nonce;

    private ScramSha256Authenticator(ScramVerifier verifier, boolean doomed, String serverNonce) {
        this.verifier = requireNonNull(verifier, "verifier is null");
        this.doomed = doomed;
        this.serverNonce = requireNonNull(serverNonce, "serverNonce is null");
        if (serverNonce.isEmpty() || !printable(serverNonce)) {
            throw new IllegalArgumentException("A SCRAM nonce is printable ASCII without commas");
        }
    }

    /** An exchange that succeeds when the client proves it knows the password of {@code verifier}. */
    public static ScramSha256Authenticator of(ScramVerifier verifier, String serverNonce) {
        return new ScramSha256Authenticator(verifier, false, serverNonce);
    }

    /** An exchange that looks like {@link #of} to the client and always fails at the proof (an unknown user). */
    public static ScramSha256Authenticator doomed(ScramVerifier mock, String serverNonce) {
        return new ScramSha256Authenticator(mock, true, serverNonce);
    }

    /**
     * Reads the client-first-message ({@code n,,n=user,r=nonce}) and answers the
     * server-first-message ({@code r=nonce,s=salt,i=iterations}).
     */
    public byte[] serverFirstMessage(byte[] clientFirstMessage) {
        requireNonNull(clientFirstMessage, "clientFirstMessage is null");
        if (state != State.AWAITING_CLIENT_FIRST) {
            throw new MalformedScramMessageException("a second client-first-message");
        }
        state = State.DONE; // until this message proves well-formed
        String message = text(clientFirstMessage, "client-first-message");
        int first = message.indexOf(',');
        int second = first < 0 ? -1 : message.indexOf(',', first + 1);
        if (second < 0) {
            throw new MalformedScramMessageException("the client-first-message has no GS2 header (n,, or y,,)");
        }
        String flag = message.substring(0, first);
        if (flag.startsWith("p=")) {
            throw new MalformedScramMessageException("the client asks for channel binding (" + flag
                    + "), which this server does not offer (" + MECHANISM + " only)");
        }
        if (!flag.equals("n") && !flag.equals("y")) {
            // "y": the client could bind the channel but thinks the server cannot; right, it does not offer -PLUS.
            throw new MalformedScramMessageException("unexpected channel-binding flag '" + flag
                    + "' (expected n or y)");
        }
        if (second != first + 1) {
            throw new MalformedScramMessageException("the client names an authorization identity, which this server "
                    + "does not support");
        }
        gs2Header = message.substring(0, second + 1);
        clientFirstBare = message.substring(second + 1);
        String[] attributes = clientFirstBare.split(",", -1);
        if (attributes[0].startsWith("m=")) {
            throw new MalformedScramMessageException("the client asks for a mandatory extension, which this server "
                    + "does not support");
        }
        if (!attributes[0].startsWith("n=")) {
            throw new MalformedScramMessageException("the client-first-message has no user name (n=)");
        }
        if (attributes.length < 2 || !attributes[1].startsWith("r=")) {
            throw new MalformedScramMessageException("the client-first-message has no nonce (r=)");
        }
        String clientNonce = attributes[1].substring(2);
        if (clientNonce.isEmpty() || !printable(clientNonce)) {
            throw new MalformedScramMessageException("the client's nonce is empty or not printable ASCII");
        }
        nonce = clientNonce + serverNonce;
        serverFirst = "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(verifier.salt()) + ",i="
                + verifier.iterations();
        state = State.AWAITING_CLIENT_FINAL;
        return serverFirst.getBytes(US_ASCII);
    }

    /**
     * Reads the client-final-message ({@code c=biws,r=nonce,p=proof}) and, when the proof is right,
     * answers the server-final-message ({@code v=signature}); empty when it is wrong (or the
     * exchange is doomed). Either way the exchange is over.
     */
    public Optional<byte[]> serverFinalMessage(byte[] clientFinalMessage) {
        requireNonNull(clientFinalMessage, "clientFinalMessage is null");
        if (state != State.AWAITING_CLIENT_FINAL) {
            throw new MalformedScramMessageException(state == State.DONE ? "the exchange is over"
                    : "a client-final-message before the client-first-message");
        }
        state = State.DONE;
        String message = text(clientFinalMessage, "client-final-message");
        String[] attributes = message.split(",", -1);
        if (!attributes[0].startsWith("c=")) {
            throw new MalformedScramMessageException("the client-final-message has no channel binding (c=)");
        }
        String binding = new String(base64(attributes[0].substring(2), "channel binding"), UTF_8);
        if (!binding.equals(gs2Header)) {
            throw new MalformedScramMessageException("the channel binding of the client-final-message is not the GS2 "
                    + "header of its client-first-message");
        }
        if (attributes.length < 3 || !attributes[1].startsWith("r=")) {
            throw new MalformedScramMessageException("the client-final-message has no nonce (r=)");
        }
        if (!attributes[1].substring(2).equals(nonce)) {
            throw new MalformedScramMessageException("the nonce of the client-final-message is not the one agreed");
        }
        String last = attributes[attributes.length - 1];
        if (!last.startsWith("p=")) {
            throw new MalformedScramMessageException("the client-final-message does not end with a proof (p=)");
        }
        byte[] proof = base64(last.substring(2), "proof");
        if (proof.length != 32) {
            throw new MalformedScramMessageException("the proof is " + proof.length + " bytes long, not 32");
        }
        String withoutProof = message.substring(0, message.length() - last.length() - 1);
        byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(UTF_8);
        byte[] storedKey = verifier.storedKey();
        byte[] clientSignature = ScramVerifier.hmac(storedKey, authMessage);
        byte[] clientKey = new byte[proof.length];
        for (int i = 0; i < proof.length; i++) {
            clientKey[i] = (byte) (proof[i] ^ clientSignature[i]);
        }
        // Constant time: how much of the proof is right must not show in how long the answer takes.
        boolean verified = MessageDigest.isEqual(ScramVerifier.sha256(clientKey), storedKey);
        if (!verified || doomed) {
            return Optional.empty();
        }
        byte[] serverSignature = ScramVerifier.hmac(verifier.serverKey(), authMessage);
        return Optional.of(("v=" + Base64.getEncoder().encodeToString(serverSignature)).getBytes(US_ASCII));
    }

    private static String text(byte[] bytes, String what) {
        try {
            return UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new MalformedScramMessageException("the " + what + " is not UTF-8");
        }
    }

    private static byte[] base64(String value, String what) {
        try {
            return Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            throw new MalformedScramMessageException("the " + what + " is not base64");
        }
    }

    /** RFC 5802's {@code printable}: %x21-2B / %x2D-7E. */
    private static boolean printable(String value) {
        return value.chars().allMatch(c -> c >= 0x21 && c <= 0x7e && c != ',');
    }
}
