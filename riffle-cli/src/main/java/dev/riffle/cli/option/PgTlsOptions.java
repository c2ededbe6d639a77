package dev.riffle.cli.option;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code --pg-tls-cert} and {@code --pg-tls-key}, the same in {@code riffle local} and
 * {@code riffle serve}: the PostgreSQL protocol over TLS, which clients must then use.
 *
 * <pre>{@code
 * @Mixin PgTlsOptions pgTls;
 * pgTls.check(spec.commandLine());
 * }</pre>
 */
public final class PgTlsOptions {
    @Option(names = "--pg-tls-cert", paramLabel = "PEM",
            description = "Serve the PostgreSQL protocol over TLS with this certificate chain (with --pg-tls-key); "
                    + "clients must then connect with TLS (sslmode=require).")
    Optional<Path> certificateChain = Optional.empty();

    @Option(names = "--pg-tls-key", paramLabel = "PEM",
            description = "The private key of --pg-tls-cert (PKCS#8: BEGIN PRIVATE KEY).")
    Optional<Path> privateKey = Optional.empty();

    /** Refuses one of the two without the other. */
    public void check(CommandLine commandLine) {
        if (certificateChain.isPresent() != privateKey.isPresent()) {
            throw new CommandLine.ParameterException(commandLine, "--pg-tls-cert and --pg-tls-key go together");
        }
    }

    public Optional<Path> certificateChain() {
        return certificateChain;
    }

    public Optional<Path> privateKey() {
        return privateKey;
    }
}
