package dev.riffle.bench;

import java.nio.file.Files;
import java.nio.file.Path;

/** The repository's {@code bin/riffle}, for benchmarks that time or run the real command. */
final class BinRiffle {
    private BinRiffle() {}

    /**
     * {@code bin/riffle} beside the module the benchmark runs from ({@code exec:exec} runs in riffle-bench).
     *
     * @throws IllegalStateException when there is none
     */
    static Path locate() {
        Path riffle = Path.of(System.getProperty("user.dir")).resolve("..").normalize().resolve("bin/riffle");
        if (!Files.isExecutable(riffle)) {
            throw new IllegalStateException("No bin/riffle at " + riffle + "; run from the riffle-bench module");
        }
        return riffle;
    }
}
