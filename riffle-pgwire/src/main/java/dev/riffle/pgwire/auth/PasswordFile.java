package dev.riffle.pgwire.auth;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The users PostgreSQL clients may log in as with SCRAM-SHA-256, and their Fluss SASL/PLAIN
 * passwords. SCRAM never shows the server a password, yet Riffle opens each user's own Fluss
 * connection with it, so the server must know the passwords beforehand: this is where they come
 * from. The file has one {@code user:password} a line (UTF-8; the password is everything after the
 * first colon, so it may hold colons; blank lines and lines starting with {@code #} are skipped).
 * Keep it readable only by the account that runs Riffle.
 *
 * <pre>{@code
 * PasswordFile users = PasswordFile.read(Path.of("/etc/riffle/pg-users")); // alice:alice-secret
 * PgWireServer.builder().auth(Auth.BASIC).scramUsers(users);
 * }</pre>
 *
 * @param passwords each user's password
 */
public record PasswordFile(Map<String, String> passwords) {
    public PasswordFile {
        requireNonNull(passwords, "passwords is null");
        passwords.forEach((user, password) -> {
            requireNonNull(user, "a user is null");
            requireNonNull(password, "the password of " + user + " is null");
            if (user.isEmpty()) {
                throw new InvalidPasswordFileException("A user name is empty");
            }
            if (password.isEmpty()) {
                // As PostgreSQL: an empty password cannot be a SCRAM secret (and PBKDF2 takes no empty key).
                throw new InvalidPasswordFileException("The password of user '" + user + "' is empty");
            }
        });
        passwords = Map.copyOf(passwords);
    }

    /** Reads a file of {@code user:password} lines. */
    public static PasswordFile read(Path file) throws IOException {
        requireNonNull(file, "file is null");
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new InvalidPasswordFileException("Password file " + file + " is not UTF-8 text");
        }
        Map<String, String> passwords = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).endsWith("\r") ? lines.get(i).substring(0, lines.get(i).length() - 1)
                    : lines.get(i);
            if (line.isBlank() || line.stripLeading().startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            String where = "Password file " + file + ", line " + (i + 1);
            if (colon <= 0 || colon == line.length() - 1) {
                throw new InvalidPasswordFileException(where + ": expected user:password (neither may be empty)");
            }
            String user = line.substring(0, colon);
            if (passwords.put(user, line.substring(colon + 1)) != null) {
                throw new InvalidPasswordFileException(where + ": user '" + user + "' is named twice");
            }
        }
        if (passwords.isEmpty()) {
            throw new InvalidPasswordFileException("Password file " + file + " names no user (one user:password a line)");
        }
        return new PasswordFile(passwords);
    }

    /** The users named. */
    public Set<String> users() {
        return passwords.keySet();
    }

    @Override
    public String toString() {
        return "PasswordFile[users=" + passwords.keySet() + "]"; // never the passwords
    }
}
