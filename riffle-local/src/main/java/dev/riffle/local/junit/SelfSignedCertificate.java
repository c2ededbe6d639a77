package dev.riffle.local.junit;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.util.Base64;

/**
 * A self-signed certificate for 127.0.0.1, made with the JDK's keytool and written as PEM files (the
 * certificate, and the private key in PKCS#8), for tests of the TLS of Riffle's servers (Flight SQL,
 * PostgreSQL protocol). Clients that check certificates do not trust it.
 *
 * <pre>{@code
 * SelfSignedCertificate tls = SelfSignedCertificate.create(tempDir);
 * FlightSqlServer.builder().tls(tls.certificate().toFile(), tls.privateKey().toFile());
 * }</pre>
 *
 * @param certificate the PEM certificate ({@code BEGIN CERTIFICATE})
 * @param privateKey the PEM private key ({@code BEGIN PRIVATE KEY})
 */
public record SelfSignedCertificate(Path certificate, Path privateKey) {
    public SelfSignedCertificate {
        requireNonNull(certificate, "certificate is null");
        requireNonNull(privateKey, "privateKey is null");
    }

    /** Makes a certificate valid for two days and writes {@code cert.pem} and {@code key.pem} into {@code dir}. */
    public static SelfSignedCertificate create(Path dir) throws IOException, InterruptedException {
        Path store = dir.resolve("tls.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process process = new ProcessBuilder(keytool, "-genkeypair", "-alias", "riffle", "-keyalg", "RSA", "-keysize",
                "2048", "-validity", "2", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException("keytool could not make a certificate: " + output);
        }
        try {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                keys.load(in, "changeit".toCharArray());
            }
            PrivateKey key = (PrivateKey) keys.getKey("riffle", "changeit".toCharArray());
            Base64.Encoder pem = Base64.getMimeEncoder(64, "\n".getBytes(US_ASCII));
            Path certificate = Files.writeString(dir.resolve("cert.pem"), "-----BEGIN CERTIFICATE-----\n"
                    + pem.encodeToString(keys.getCertificate("riffle").getEncoded()) + "\n-----END CERTIFICATE-----\n");
            Path privateKey = Files.writeString(dir.resolve("key.pem"), "-----BEGIN PRIVATE KEY-----\n"
                    + pem.encodeToString(key.getEncoded()) + "\n-----END PRIVATE KEY-----\n");
            return new SelfSignedCertificate(certificate, privateKey);
        } catch (GeneralSecurityException e) {
            throw new IOException("Cannot read the certificate keytool made in " + store, e);
        }
    }
}
