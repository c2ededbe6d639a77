package dev.riffle.cli.option;

import dev.riffle.gateway.console.ConsoleMode;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code --console on|read-only|off}, shared by {@code riffle local} and {@code riffle serve}
 * (a picocli mixin): whether the HTTP gateway serves its web console at {@code /}.
 */
public final class ConsoleOption {
    @Option(names = "--console", paramLabel = "on|read-only|off", defaultValue = "on", converter = Mode.class,
            description = "The web console at the HTTP gateway's root: on, read-only (no writes, DDL or non-query "
                    + "SQL in the console; the API is unchanged) or off (default: ${DEFAULT-VALUE}).")
    ConsoleMode mode;

    public ConsoleMode mode() {
        return mode;
    }

    /** The option's value, with the choices named when it is none of them. */
    static final class Mode implements CommandLine.ITypeConverter<ConsoleMode> {
        @Override
        public ConsoleMode convert(String value) {
            try {
                return ConsoleMode.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
