package dev.riffle.pgwire.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** RFC 4013 section 3's examples, and what SCRAM clients send most: printable ASCII, unchanged. */
class SaslPrepTest {
    @Test
    void rfc4013Examples() {
        assertThat(SaslPrep.prepare("I\u00ADX")).contains("IX"); // soft hyphen mapped to nothing
        assertThat(SaslPrep.prepare("user")).contains("user");
        assertThat(SaslPrep.prepare("USER")).contains("USER"); // case is kept
        assertThat(SaslPrep.prepare("\u00AA")).contains("a"); // NFKC
        assertThat(SaslPrep.prepare("\u2168")).contains("IX"); // NFKC
        assertThat(SaslPrep.prepare("\u0007")).isEmpty(); // prohibited
        assertThat(SaslPrep.prepare("\u0627\u0031")).isEmpty(); // bidirectional check
    }

    @Test
    void nonAsciiSpacesBecomeSpacesAndPrintableAsciiStaysAsItIs() {
        assertThat(SaslPrep.prepare("a\u00A0b")).contains("a b");
        assertThat(SaslPrep.prepare("p@ss w:rd~!")).contains("p@ss w:rd~!");
        assertThat(SaslPrep.prepare("pässwörd")).contains("pässwörd");
    }
}
