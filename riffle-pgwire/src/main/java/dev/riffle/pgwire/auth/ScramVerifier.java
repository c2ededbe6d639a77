package dev.riffle.pgwire.auth;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a SCRAM-SHA-256 server keeps of one password (RFC 5802 section 3): the salt, the iteration
 * count, {@code StoredKey = H(HMAC(SaltedPassword, "Client Key"))} and
 * {@code ServerKey = HMAC(SaltedPassword, "Server Key")}, where {@code SaltedPassword} is PBKDF2
 * with HMAC-SHA-256 of the SASLprep'ed password. With these the server checks a client's proof
 * and proves itself, without the password crossing the network.
 *
 * <pre>{@code
 * ScramVerifier verifier = ScramVerifier.derive("pencil", salt, ScramVerifier.ITERATIONS);
 * }</pre>
 */
public record ScramVerifier(byte[] salt, int iterations, byte[] storedKey, byte[] serverKey) {
    /** The iteration count Riffle derives verifiers with (PostgreSQL's default, scram_iterations). */
    public static final int ITERATIONS = 4096;
    /** The length of a salt Riffle makes, in bytes (PostgreSQL's SCRAM_DEFAULT_SALT_LEN). */
    public static final int SALT_BYTES = 16;
    private static final int KEY_BYTES = 32;

    public ScramVerifier {
        salt = requireNonNull(salt, "salt is null").clone();
        storedKey = requireNonNull(storedKey, "storedKey is null").clone();
        serverKey = requireNonNull(serverKey, "serverKey is null").clone();
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be at least 1, got " + iterations);
        }
        if (salt.length == 0 || storedKey.length != KEY_BYTES || serverKey.length != KEY_BYTES) {
            throw new IllegalArgumentException("A SCRAM-SHA-256 verifier has a salt and 32-byte keys");
        }
    }

    /** The verifier of {@code password} with this salt and iteration count. */
    public static ScramVerifier derive(String password, byte[] salt, int iterations) {
        requireNonNull(password, "password is null");
        requireNonNull(salt, "salt is null");
        String prepared = SaslPrep.prepare(password).orElse(password);
        byte[] salted;
        try {
            PBEKeySpec spec = new PBEKeySpec(prepared.toCharArray(), salt, iterations, KEY_BYTES * 8);
            try {
                // The JDK's PBKDF2 encodes the password's characters as UTF-8, as SCRAM wants.
                salted = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
            } finally {
                spec.clearPassword();
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK has no PBKDF2WithHmacSHA256", e);
        }
        try {
            return new ScramVerifier(salt, iterations, sha256(hmac(salted, "Client Key".getBytes(UTF_8))),
                    hmac(salted, "Server Key".getBytes(UTF_8)));
        } finally {
            Arrays.fill(salted, (byte) 0);
        }
    }

    @Override
    public byte[] salt() {
        return salt.clone();
    }

    @Override
    public byte[] storedKey() {
        return storedKey.clone();
    }

    @Override
    public byte[] serverKey() {
        return serverKey.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScramVerifier that && iterations == that.iterations && Arrays.equals(salt, that.salt)
                && MessageDigest.isEqual(storedKey, that.storedKey) && MessageDigest.isEqual(serverKey, that.serverKey);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(salt) * 31 + iterations;
    }

    @Override
    public String toString() {
        return "ScramVerifier[iterations=" + iterations + "]"; // keys stay out of logs
    }

    static byte[] hmac(byte[] key, byte[] message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK has no HmacSHA256", e);
        }
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("The JDK has no SHA-256", e);
        }
    }
}
