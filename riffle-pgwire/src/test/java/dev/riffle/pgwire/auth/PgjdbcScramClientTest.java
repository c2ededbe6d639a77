package dev.riffle.pgwire.auth;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.shaded.com.ongres.scram.client.ScramClient;
import org.postgresql.shaded.com.ongres.scram.common.StringPreparation;

/**
 * The authenticator against the SCRAM client pgjdbc logs in with (ongres scram-client, shaded in
 * pgjdbc's jar, with the string preparation pgjdbc gives it), for passwords that SASLprep changes
 * or leaves alone: both sides must derive the same keys, and the client must accept the server's
 * signature.
 */
class PgjdbcScramClientTest {

    @ParameterizedTest
    @ValueSource(strings = {"pencil", "p@ss w:rd,=~", "pässwörd", "I\u00ADX", "\u2168", "a\u00A0b", "日本語のパスワード",
            "bell\u0007"})
    void pgjdbcsClientAndTheServerAgree(String password) throws Exception {
        byte[] salt = new byte[ScramVerifier.SALT_BYTES];
        new SecureRandom().nextBytes(salt);
        ScramSha256Authenticator server = ScramSha256Authenticator.of(
                ScramVerifier.derive(password, salt, ScramVerifier.ITERATIONS), "serverNonce123");
        ScramClient client = client(password);
        String serverFirst = new String(server.serverFirstMessage(client.clientFirstMessage().toString()
                .getBytes(UTF_8)), UTF_8);
        client.serverFirstMessage(serverFirst);
        Optional<byte[]> serverFinal = server.serverFinalMessage(client.clientFinalMessage().toString()
                .getBytes(UTF_8));
        assertThat(serverFinal).as("the server accepts pgjdbc's proof for %s", password).isPresent();
        // Throws when the server's signature is not what the client expects.
        client.serverFinalMessage(new String(serverFinal.get(), UTF_8));
    }

    @Test
    void pgjdbcsProofForAnotherPasswordIsRefused() throws Exception {
        byte[] salt = new byte[ScramVerifier.SALT_BYTES];
        ScramSha256Authenticator server = ScramSha256Authenticator.of(
                ScramVerifier.derive("pässwörd", salt, ScramVerifier.ITERATIONS), "serverNonce123");
        ScramClient client = client("passwort");
        client.serverFirstMessage(new String(server.serverFirstMessage(client.clientFirstMessage().toString()
                .getBytes(UTF_8)), UTF_8));
        assertThat(server.serverFinalMessage(client.clientFinalMessage().toString().getBytes(UTF_8))).isEmpty();
    }

    private static ScramClient client(String password) {
        return ScramClient.builder().advertisedMechanisms(List.of(ScramSha256Authenticator.MECHANISM)).username("*")
                .password(password.toCharArray()).stringPreparation(StringPreparation.POSTGRESQL_PREPARATION).build();
    }
}
