package dev.riffle.pgwire.auth;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.Optional;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import org.junit.jupiter.api.Test;

/** The server side of SCRAM-SHA-256 against RFC 7677's example exchange, wrong proofs and broken messages. */
class ScramSha256AuthenticatorTest {
    // RFC 7677, section 3.
    private static final byte[] SALT = Base64.getDecoder().decode("W22ZaJ0SNY7soEsUEjb6gQ==");
    private static final String SERVER_NONCE = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    private static final String CLIENT_FIRST = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
    private static final String SERVER_FIRST = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            + "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    private static final String CLIENT_FINAL = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
            + "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
    private static final String SERVER_FINAL = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

    private static ScramSha256Authenticator pencil() {
        return ScramSha256Authenticator.of(ScramVerifier.derive("pencil", SALT, 4096), SERVER_NONCE);
    }

    private static String serverFirst(ScramSha256Authenticator scram, String clientFirst) {
        return new String(scram.serverFirstMessage(clientFirst.getBytes(UTF_8)), UTF_8);
    }

    private static Optional<String> serverFinal(ScramSha256Authenticator scram, String clientFinal) {
        return scram.serverFinalMessage(clientFinal.getBytes(UTF_8)).map(bytes -> new String(bytes, UTF_8));
    }

    @Test
    void rfc7677Example() {
        ScramSha256Authenticator scram = pencil();
        assertThat(serverFirst(scram, CLIENT_FIRST)).isEqualTo(SERVER_FIRST);
        assertThat(serverFinal(scram, CLIENT_FINAL)).contains(SERVER_FINAL);
    }

    @Test
    void theUserNameInTheMessageIsIgnoredAsPostgreSqlDoes() {
        // libpq sends an empty name (n=): the user is the startup message's.
        String clientFirst = "n,,n=,r=rOprNGfwEbeRWgbNEkqO";
        ScramSha256Authenticator scram = pencil();
        String first = serverFirst(scram, clientFirst);
        assertThat(first).isEqualTo(SERVER_FIRST);
        assertThat(serverFinal(scram, ScramClient.clientFinal("pencil", "n,,", "n=,r=rOprNGfwEbeRWgbNEkqO", first)))
                .isPresent();
    }

    @Test
    void aClientThatCouldBindTheChannelButWasNotOfferedItIsServed() {
        // "y": the client supports channel binding, the server did not offer SCRAM-SHA-256-PLUS.
        ScramSha256Authenticator scram = pencil();
        String first = serverFirst(scram, "y,,n=,r=abc");
        String clientFinal = ScramClient.clientFinal("pencil", "y,,", "n=,r=abc", first);
        assertThat(clientFinal).startsWith("c=eSws,"); // base64("y,,")
        assertThat(serverFinal(scram, clientFinal)).hasValueSatisfying(v -> assertThat(v).startsWith("v="));
    }

    @Test
    void aWrongPasswordIsRefused() {
        ScramSha256Authenticator scram = pencil();
        String first = serverFirst(scram, CLIENT_FIRST);
        assertThat(serverFinal(scram, ScramClient.clientFinal("crayon", "n,,", "n=user,r=rOprNGfwEbeRWgbNEkqO",
                first))).isEmpty();
    }

    @Test
    void aProofWithOneBitWrongIsRefused() {
        byte[] proof = Base64.getDecoder().decode("dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
        proof[31] ^= 1;
        ScramSha256Authenticator scram = pencil();
        serverFirst(scram, CLIENT_FIRST);
        assertThat(serverFinal(scram, CLIENT_FINAL.substring(0, CLIENT_FINAL.indexOf("p=") + 2)
                + Base64.getEncoder().encodeToString(proof))).isEmpty();
    }

    @Test
    void aDoomedExchangeFailsEvenWithTheRightProof() {
        ScramSha256Authenticator scram = ScramSha256Authenticator.doomed(ScramVerifier.derive("pencil", SALT, 4096),
                SERVER_NONCE);
        assertThat(serverFirst(scram, CLIENT_FIRST)).isEqualTo(SERVER_FIRST);
        assertThat(serverFinal(scram, CLIENT_FINAL)).isEmpty();
    }

    @Test
    void malformedClientFirstMessages() {
        assertMalformedFirst("", "no GS2 header");
        assertMalformedFirst("n=user,r=abc", "no GS2 header");
        assertMalformedFirst("p=tls-server-end-point,,n=,r=abc", "channel binding");
        assertMalformedFirst("x,,n=,r=abc", "unexpected channel-binding flag 'x'");
        assertMalformedFirst("n,a=admin,n=,r=abc", "authorization identity");
        assertMalformedFirst("n,,m=ext,n=,r=abc", "mandatory extension");
        assertMalformedFirst("n,,r=abc", "no user name");
        assertMalformedFirst("n,,n=user", "no nonce");
        assertMalformedFirst("n,,n=user,s=abc", "no nonce");
        assertMalformedFirst("n,,n=user,r=", "nonce is empty or not printable");
        assertMalformedFirst("n,,n=user,r=ab c", "nonce is empty or not printable");
        assertThatThrownBy(() -> pencil().serverFirstMessage(new byte[] {'n', ',', ',', (byte) 0xff}))
                .isInstanceOf(MalformedScramMessageException.class).hasMessage("malformed SCRAM message: the "
                        + "client-first-message is not UTF-8");
    }

    @Test
    void malformedClientFinalMessages() {
        assertMalformedFinal("", "no channel binding (c=)");
        assertMalformedFinal("r=x,p=y", "no channel binding (c=)");
        assertMalformedFinal("c=***,r=x,p=y", "channel binding is not base64");
        assertMalformedFinal("c=eSws," + CLIENT_FINAL.substring(7), "not the GS2 header");
        assertMalformedFinal("c=biws,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=", "no nonce");
        assertMalformedFinal("c=biws,r=rOprNGfwEbeRWgbNEkqO,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
                "not the one agreed");
        assertMalformedFinal(CLIENT_FINAL.substring(0, CLIENT_FINAL.lastIndexOf(',')) + ",x=1",
                "does not end with a proof");
        assertMalformedFinal(CLIENT_FINAL.substring(0, CLIENT_FINAL.indexOf("p=") + 2) + "AAAAAA==",
                "4 bytes long, not 32");
        assertMalformedFinal(CLIENT_FINAL.substring(0, CLIENT_FINAL.indexOf("p=") + 2) + "!!", "proof is not base64");
    }

    @Test
    void messagesOutOfOrder() {
        assertThatThrownBy(() -> pencil().serverFinalMessage(CLIENT_FINAL.getBytes(UTF_8)))
                .isInstanceOf(MalformedScramMessageException.class).hasMessageContaining("before the client-first");
        ScramSha256Authenticator scram = pencil();
        serverFirst(scram, CLIENT_FIRST);
        assertThatThrownBy(() -> serverFirst(scram, CLIENT_FIRST)).isInstanceOf(MalformedScramMessageException.class)
                .hasMessageContaining("a second client-first-message");
        serverFinal(scram, CLIENT_FINAL);
        assertThatThrownBy(() -> serverFinal(scram, CLIENT_FINAL)).isInstanceOf(MalformedScramMessageException.class)
                .hasMessageContaining("the exchange is over");
    }

    @Test
    void aBrokenFirstMessageEndsTheExchange() {
        ScramSha256Authenticator scram = pencil();
        assertThatThrownBy(() -> serverFirst(scram, "n,,r=abc")).isInstanceOf(MalformedScramMessageException.class);
        assertThatThrownBy(() -> serverFinal(scram, CLIENT_FINAL)).isInstanceOf(MalformedScramMessageException.class);
    }

    private static void assertMalformedFirst(String clientFirst, String detail) {
        assertThatThrownBy(() -> serverFirst(pencil(), clientFirst)).as(clientFirst)
                .isInstanceOf(MalformedScramMessageException.class).hasMessageStartingWith("malformed SCRAM message: ")
                .hasMessageContaining(detail);
    }

    private static void assertMalformedFinal(String clientFinal, String detail) {
        ScramSha256Authenticator scram = pencil();
        serverFirst(scram, CLIENT_FIRST);
        assertThatThrownBy(() -> serverFinal(scram, clientFinal)).as(clientFinal)
                .isInstanceOf(MalformedScramMessageException.class).hasMessageContaining(detail);
    }

    /** The client's side, as RFC 5802 section 3 computes it, to make proofs for other messages than the RFC's. */
    static final class ScramClient {
        static String clientFinal(String password, String gs2Header, String clientFirstBare, String serverFirst) {
            String nonce = serverFirst.split(",")[0].substring(2);
            byte[] salt = Base64.getDecoder().decode(serverFirst.split(",")[1].substring(2));
            int iterations = Integer.parseInt(serverFirst.split(",")[2].substring(2));
            String withoutProof = "c=" + Base64.getEncoder().encodeToString(gs2Header.getBytes(UTF_8)) + ",r=" + nonce;
            byte[] salted;
            try {
                salted = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                        .generateSecret(new PBEKeySpec(password.toCharArray(), salt, iterations, 256)).getEncoded();
            } catch (java.security.GeneralSecurityException e) {
                throw new AssertionError(e);
            }
            byte[] clientKey = ScramVerifier.hmac(salted, "Client Key".getBytes(UTF_8));
            byte[] authMessage = (clientFirstBare + "," + serverFirst + "," + withoutProof).getBytes(UTF_8);
            byte[] signature = ScramVerifier.hmac(ScramVerifier.sha256(clientKey), authMessage);
            byte[] proof = new byte[clientKey.length];
            for (int i = 0; i < proof.length; i++) {
                proof[i] = (byte) (clientKey[i] ^ signature[i]);
            }
            return withoutProof + ",p=" + Base64.getEncoder().encodeToString(proof);
        }
    }
}
