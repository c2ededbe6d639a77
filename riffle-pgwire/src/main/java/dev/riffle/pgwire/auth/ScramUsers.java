package dev.riffle.pgwire.auth;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The SCRAM-SHA-256 users of one PostgreSQL server: each user's verifier, derived when the server
 * starts from a {@link PasswordFile} with a random salt and {@value ScramVerifier#ITERATIONS}
 * iterations, and the password itself, which opens that user's Fluss SASL/PLAIN connection once
 * the proof is verified. A user it does not know gets a doomed exchange with a salt made from the
 * name and a secret of this server (the same salt each time, as for a real user), so a client
 * learns nothing about which users exist.
 *
 * <pre>{@code
 * ScramUsers users = ScramUsers.derive(PasswordFile.read(file));
 * ScramSha256Authenticator scram = users.authenticator("alice");
 * }</pre>
 */
public final class ScramUsers {
    private static final int NONCE_BYTES = 18;

    private record User(String password, ScramVerifier verifier) {}

    private final Map<String, User> users;
    private final byte[] mockSecret;
    private final SecureRandom random;

    private ScramUsers(Map<String, User> users, byte[] mockSecret, SecureRandom random) {
        this.users = users;
        this.mockSecret = mockSecret;
        this.random = random;
    }

    /** Derives the verifiers of {@code file}'s users (a few milliseconds each). */
    public static ScramUsers derive(PasswordFile file) {
        requireNonNull(file, "file is null");
        SecureRandom random = new SecureRandom();
        Map<String, User> users = new LinkedHashMap<>();
        file.passwords().forEach((user, password) -> {
            byte[] salt = new byte[ScramVerifier.SALT_BYTES];
            random.nextBytes(salt);
            users.put(user, new User(password, ScramVerifier.derive(password, salt, ScramVerifier.ITERATIONS)));
        });
        byte[] mockSecret = new byte[32];
        random.nextBytes(mockSecret);
        return new ScramUsers(Map.copyOf(users), mockSecret, random);
    }

    /** The users who may log in. */
    public Set<String> users() {
        return users.keySet();
    }

    /** A new exchange for {@code user} with a fresh server nonce; doomed when the user is unknown. */
    public ScramSha256Authenticator authenticator(String user) {
        requireNonNull(user, "user is null");
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        String serverNonce = Base64.getEncoder().encodeToString(nonce);
        User known = users.get(user);
        if (known != null) {
            return ScramSha256Authenticator.of(known.verifier(), serverNonce);
        }
        byte[] salt = Arrays.copyOf(ScramVerifier.hmac(mockSecret, user.getBytes(UTF_8)), ScramVerifier.SALT_BYTES);
        ScramVerifier mock = new ScramVerifier(salt, ScramVerifier.ITERATIONS, new byte[32], new byte[32]);
        return ScramSha256Authenticator.doomed(mock, serverNonce);
    }

    /** The password of a known user, for its Fluss SASL/PLAIN connection after its proof is verified. */
    public Optional<String> password(String user) {
        return Optional.ofNullable(users.get(requireNonNull(user, "user is null"))).map(User::password);
    }

    @Override
    public String toString() {
        return "ScramUsers" + users.keySet();
    }
}
