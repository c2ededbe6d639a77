package dev.riffle.cli.read;

import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import picocli.CommandLine;

/** The formats of {@code riffle read --format}, and the {@link RowWriter} of each. */
public enum OutputFormat {
    /** CSV with a header line. */
    CSV(false),
    /** Newline-delimited JSON objects. */
    JSON(false),
    /** An Arrow IPC stream. */
    ARROW(true);

    private final boolean binary;

    OutputFormat(boolean binary) {
        this.binary = binary;
    }

    /** Whether the output is bytes, not text (and so unfit for a terminal). */
    public boolean isBinary() {
        return binary;
    }

    /** A writer of this format into {@code output}; {@code allocator} is the parent of what it allocates. */
    public RowWriter open(Output output, Schema schema, BufferAllocator allocator) throws IOException {
        return switch (this) {
            case CSV -> new CsvRowWriter(output.text(), schema);
            case JSON -> new JsonRowWriter(output.text());
            case ARROW -> new ArrowStreamRowWriter(output.binary(), schema, allocator);
        };
    }

    /** How users write it: lower case. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Accepts any case, and names the choices when the value is none of them. */
    public static final class Converter implements CommandLine.ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String value) {
            for (OutputFormat format : values()) {
                if (format.name().equalsIgnoreCase(value.strip())) {
                    return format;
                }
            }
            throw new CommandLine.TypeConversionException("'" + value + "' is not a format; expected one of "
                    + Arrays.stream(values()).map(OutputFormat::toString).collect(Collectors.joining(", ")));
        }
    }
}
