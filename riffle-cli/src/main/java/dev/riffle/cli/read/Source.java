package dev.riffle.cli.read;

import java.util.Locale;
import picocli.CommandLine;

/** Where {@code riffle read} takes rows from. */
enum Source {
    /** The lake snapshot plus the Fluss log past it. */
    UNION,
    /** The Fluss log alone. */
    LOG,
    /** The lake snapshot alone. */
    LAKE,
    /** A primary-key table's rows from Fluss alone: each bucket's KV snapshot and the changelog after it. */
    CURRENT;

    static final class Converter implements CommandLine.ITypeConverter<Source> {
        @Override
        public Source convert(String value) {
            try {
                return Source.valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a source: use union, log, lake or current");
            }
        }
    }
}
