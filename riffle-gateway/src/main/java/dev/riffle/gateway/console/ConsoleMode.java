package dev.riffle.gateway.console;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Whether the gateway serves its web console at {@code /}, and what the console offers
 * ({@code --console on|read-only|off}). The console is a client of the public API: read-only hides
 * its writes, DDL and non-query SQL, but the API itself answers a script as before (authorization is
 * Fluss's, through {@code --auth basic}).
 *
 * <pre>{@code
 * Gateway.builder().bootstrapServers("127.0.0.1:9123").console(ConsoleMode.READ_ONLY).start();
 * }</pre>
 */
public enum ConsoleMode {
    /** The console with everything the API offers: browsing, SQL, writes and DDL. */
    ON("on"),
    /** The console for looking only: no write forms, no drop buttons, queries only in the SQL editor. */
    READ_ONLY("read-only"),
    /** No console: {@code /} and {@code /console/...} are unknown routes. */
    OFF("off");

    private final String label;

    ConsoleMode(String label) {
        this.label = label;
    }

    /** How the command line and {@code /console/settings.json} spell it: {@code on}, {@code read-only}, {@code off}. */
    public String label() {
        return label;
    }

    /**
     * The mode a command line names.
     *
     * @throws IllegalArgumentException naming the choices, for anything else
     */
    public static ConsoleMode parse(String label) {
        String wanted = label == null ? "" : label.trim().toLowerCase(Locale.ROOT);
        for (ConsoleMode mode : values()) {
            if (mode.label.equals(wanted)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("The console mode must be one of "
                + Arrays.stream(values()).map(ConsoleMode::label).collect(Collectors.joining(", ")) + ", got '"
                + label + "'");
    }
}
