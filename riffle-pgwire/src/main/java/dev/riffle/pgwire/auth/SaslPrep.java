package dev.riffle.pgwire.auth;

import static java.util.Objects.requireNonNull;

import java.text.Normalizer;
import java.util.Optional;

/**
 * SASLprep (RFC 4013), the normalization SCRAM applies to a password before hashing it, so that
 * the server and pgjdbc or libpq derive the same keys from a password with non-ASCII characters:
 * non-ASCII spaces become a space, characters "mapped to nothing" are removed, then NFKC. A
 * password with a prohibited character (controls, private use, non-characters, ...) or broken
 * bidirectional text is not preparable; as in PostgreSQL and libpq the caller then uses it as it
 * is. Unassigned code points are not checked (Java's Unicode is newer than RFC 3454's 3.2).
 *
 * <pre>{@code
 * String prepared = SaslPrep.prepare(password).orElse(password);
 * }</pre>
 */
public final class SaslPrep {
    private SaslPrep() {}

    /** {@code password} prepared, or empty when SASLprep prohibits it. */
    public static Optional<String> prepare(String password) {
        requireNonNull(password, "password is null");
        if (password.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
            return Optional.of(password); // printable ASCII: SASLprep changes nothing
        }
        StringBuilder mapped = new StringBuilder(password.length());
        for (int i = 0; i < password.length(); ) {
            int c = password.codePointAt(i);
            i += Character.charCount(c);
            if (nonAsciiSpace(c)) {
                mapped.append(' ');
            } else if (!mappedToNothing(c)) {
                mapped.appendCodePoint(c);
            }
        }
        String normalized = Normalizer.normalize(mapped, Normalizer.Form.NFKC);
        boolean randAl = false;
        boolean l = false;
        for (int i = 0; i < normalized.length(); ) {
            int c = normalized.codePointAt(i);
            i += Character.charCount(c);
            if (prohibited(c)) {
                return Optional.empty();
            }
            byte direction = Character.getDirectionality(c);
            randAl |= direction == Character.DIRECTIONALITY_RIGHT_TO_LEFT
                    || direction == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC;
            l |= direction == Character.DIRECTIONALITY_LEFT_TO_RIGHT;
        }
        if (randAl && (l || !rightToLeft(normalized.codePointAt(0))
                || !rightToLeft(normalized.codePointBefore(normalized.length())))) {
            return Optional.empty(); // RFC 3454 section 6: right-to-left text must be wholly so
        }
        return Optional.of(normalized);
    }

    private static boolean rightToLeft(int c) {
        byte direction = Character.getDirectionality(c);
        return direction == Character.DIRECTIONALITY_RIGHT_TO_LEFT
                || direction == Character.DIRECTIONALITY_RIGHT_TO_LEFT_ARABIC;
    }

    /** RFC 3454 table C.1.2. */
    private static boolean nonAsciiSpace(int c) {
        return c == 0x00a0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200b) || c == 0x202f || c == 0x205f
                || c == 0x3000;
    }

    /** RFC 3454 table B.1. */
    private static boolean mappedToNothing(int c) {
        return c == 0x00ad || c == 0x034f || c == 0x1806 || (c >= 0x180b && c <= 0x180d) || (c >= 0x200b && c <= 0x200d)
                || c == 0x2060 || (c >= 0xfe00 && c <= 0xfe0f) || c == 0xfeff;
    }

    /** RFC 4013 section 2.3: RFC 3454 tables C.1.2 and C.2.1 to C.9. */
    private static boolean prohibited(int c) {
        return nonAsciiSpace(c)
                || c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) // C.2.1, C.2.2
                || c == 0x06dd || c == 0x070f || c == 0x180e || c == 0x200c || c == 0x200d || c == 0x2028
                || c == 0x2029 || (c >= 0x2060 && c <= 0x2063) || (c >= 0x206a && c <= 0x206f) || c == 0xfeff
                || (c >= 0xfff9 && c <= 0xfffd) || (c >= 0x1d173 && c <= 0x1d17a) // C.2.2, C.6
                || (c >= 0xe000 && c <= 0xf8ff) || c >= 0xf0000 // C.3 (planes 15 and 16)
                || (c >= 0xfdd0 && c <= 0xfdef) || (c & 0xfffe) == 0xfffe // C.4
                || (c >= 0xd800 && c <= 0xdfff) // C.5: an unpaired surrogate
                || (c >= 0x2ff0 && c <= 0x2ffb) // C.7
                || c == 0x0340 || c == 0x0341 || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) // C.8
                || c == 0xe0001 || (c >= 0xe0020 && c <= 0xe007f); // C.9
    }
}
