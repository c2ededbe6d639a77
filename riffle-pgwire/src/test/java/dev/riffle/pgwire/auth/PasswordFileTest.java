package dev.riffle.pgwire.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code user:password} file: what it reads, and errors that name the line but never the password. */
class PasswordFileTest {
    @TempDir
    Path dir;

    @Test
    void readsUsersSkippingCommentsAndBlankLines() throws Exception {
        Path file = Files.writeString(dir.resolve("users"), "# PostgreSQL users\n\nalice:alice-secret\r\n"
                + "bob:b:o:b\n  # indented comment\n");
        PasswordFile users = PasswordFile.read(file);
        assertThat(users.passwords()).isEqualTo(Map.of("alice", "alice-secret", "bob", "b:o:b"));
        assertThat(users.toString()).doesNotContain("secret");
    }

    @Test
    void badLinesAreNamedWithoutTheirPassword() throws Exception {
        assertThatThrownBy(() -> PasswordFile.read(Files.writeString(dir.resolve("a"), "alice:x\nbob-secret\n")))
                .isInstanceOf(InvalidPasswordFileException.class)
                .hasMessage("Password file " + dir.resolve("a") + ", line 2: expected user:password (neither may be "
                        + "empty)");
        assertThatThrownBy(() -> PasswordFile.read(Files.writeString(dir.resolve("b"), ":secret\n")))
                .hasMessageContaining("line 1: expected user:password");
        assertThatThrownBy(() -> PasswordFile.read(Files.writeString(dir.resolve("c"), "alice:\n")))
                .hasMessageContaining("line 1: expected user:password");
        assertThatThrownBy(() -> PasswordFile.read(Files.writeString(dir.resolve("d"), "alice:one\nalice:two\n")))
                .hasMessageContaining("line 2: user 'alice' is named twice").hasMessageNotContaining("two");
        assertThatThrownBy(() -> PasswordFile.read(Files.writeString(dir.resolve("e"), "# nobody\n")))
                .hasMessageContaining("names no user");
        assertThatThrownBy(() -> new PasswordFile(Map.of("alice", ""))).isInstanceOf(InvalidPasswordFileException.class)
                .hasMessage("The password of user 'alice' is empty");
    }

    @Test
    void theServerDerivesASaltedVerifierPerUserAndADoomedExchangeForOthers() {
        ScramUsers users = ScramUsers.derive(new PasswordFile(Map.of("alice", "alice-secret")));
        assertThat(users.users()).containsExactly("alice");
        assertThat(users.password("alice")).contains("alice-secret");
        assertThat(users.password("mallory")).isEmpty();
        // An unknown user gets the same salt each time, as a known one does: nothing tells them apart.
        String first = new String(users.authenticator("mallory").serverFirstMessage("n,,n=,r=abc".getBytes()));
        String again = new String(users.authenticator("mallory").serverFirstMessage("n,,n=,r=abc".getBytes()));
        assertThat(first.split(",")[1]).isEqualTo(again.split(",")[1]).startsWith("s=");
        assertThat(first.split(",")[0]).isNotEqualTo(again.split(",")[0]); // a fresh server nonce each time
        assertThat(first.split(",")[2]).isEqualTo("i=4096");
    }
}
