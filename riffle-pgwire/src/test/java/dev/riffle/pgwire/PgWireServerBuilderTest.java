package dev.riffle.pgwire;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.pgwire.auth.PasswordFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings that cannot work fail at start, before a connection or a port is opened, and say why. */
class PgWireServerBuilderTest {
    @TempDir
    Path dir;

    @Test
    void scramUsersNeedAuthentication() {
        assertThatThrownBy(() -> PgWireServer.builder().bootstrapServers("127.0.0.1:1")
                .scramUsers(new PasswordFile(Map.of("alice", "alice-secret"))).start())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("SCRAM users need auth(Auth.BASIC)");
    }

    @Test
    void tlsFilesThatAreNotACertificateAndKeyAreNamed() throws Exception {
        Path certificate = Files.writeString(dir.resolve("cert.pem"), "not a certificate\n");
        Path key = dir.resolve("missing-key.pem");
        assertThatThrownBy(() -> PgWireServer.builder().bootstrapServers("127.0.0.1:1").tls(certificate, key).start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Cannot use the TLS certificate chain " + certificate + " with the private key "
                        + key);
    }
}
