package dev.riffle.flight.statement;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs and checks the bytes of a ticket with HMAC-SHA256, so a client cannot forge or change a
 * read it may not do: a ticket is its payload followed by the payload's MAC under a key every
 * Riffle instance of a deployment shares ({@code --flight-ticket-key}); without one, each process
 * makes its own, and its tickets are good on that process alone.
 *
 * <pre>{@code
 * TicketSigner signer = TicketSigner.withKey(secret);
 * byte[] ticket = signer.sign(payload);
 * Optional<byte[]> checked = signer.open(ticket); // empty when forged or changed
 * }</pre>
 */
public final class TicketSigner {
    private static final String ALGORITHM = "HmacSHA256";
    private static final int MAC_LENGTH = 32;

    private final SecretKeySpec key;

    private TicketSigner(byte[] key) {
        this.key = new SecretKeySpec(key.clone(), ALGORITHM);
    }

    /** Signs with {@code key} (at least 16 bytes). */
    public static TicketSigner withKey(byte[] key) {
        requireNonNull(key, "key is null");
        if (key.length < 16) {
            throw new IllegalArgumentException("A ticket key needs at least 16 bytes, got " + key.length);
        }
        return new TicketSigner(key);
    }

    /** Signs with a random key of this process. */
    public static TicketSigner random() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return new TicketSigner(key);
    }

    public byte[] sign(byte[] payload) {
        requireNonNull(payload, "payload is null");
        byte[] mac = mac(payload);
        return ByteBuffer.allocate(payload.length + MAC_LENGTH).put(payload).put(mac).array();
    }

    /** The payload of a ticket this key signed; empty when it was forged, changed or cut. */
    public Optional<byte[]> open(byte[] ticket) {
        requireNonNull(ticket, "ticket is null");
        if (ticket.length < MAC_LENGTH) {
            return Optional.empty();
        }
        byte[] payload = Arrays.copyOf(ticket, ticket.length - MAC_LENGTH);
        byte[] mac = Arrays.copyOfRange(ticket, ticket.length - MAC_LENGTH, ticket.length);
        return MessageDigest.isEqual(mac, mac(payload)) ? Optional.of(payload) : Optional.empty();
    }

    private byte[] mac(byte[] payload) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available in this JVM", e);
        }
    }
}
