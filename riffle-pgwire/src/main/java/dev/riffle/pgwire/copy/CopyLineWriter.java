package dev.riffle.pgwire.copy;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * Writes rows of PostgreSQL text values as COPY lines, as PostgreSQL's COPY TO does: in text
 * format each value with {@code \\}, {@code \t}, {@code \n}, {@code \r} (and the other control
 * escapes) escaped and NULL as {@code \N}; in CSV a value quoted when it holds the delimiter, a
 * quote, a line break, is empty or is {@code \.}, NULL as nothing.
 *
 * <pre>{@code
 * new CopyLineWriter(CopyOptions.defaults(CopyOptions.Format.CSV)).line(List.of(Optional.of("a,b"), Optional.empty()))
 *         // "\"a,b\",\n"
 * }</pre>
 */
public final class CopyLineWriter {
    private final CopyOptions options;

    public CopyLineWriter(CopyOptions options) {
        this.options = requireNonNull(options, "options is null");
    }

    /** One row as a line, with its newline; {@code cells} holds each value's text, empty for NULL. */
    public String line(List<Optional<String>> cells) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            if (c > 0) {
                line.append(options.delimiter());
            }
            Optional<String> cell = cells.get(c);
            if (cell.isEmpty()) {
                line.append(options.nullString());
            } else if (options.format() == CopyOptions.Format.CSV) {
                csv(line, cell.get());
            } else {
                text(line, cell.get());
            }
        }
        return line.append('\n').toString();
    }

    /** The header line: the column names, written as values. */
    public String header(List<String> columns) {
        return line(columns.stream().map(Optional::of).toList());
    }

    private void text(StringBuilder line, String value) {
        char delimiter = options.delimiter();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                case '\b' -> line.append("\\b");
                case '\f' -> line.append("\\f");
                case 0x0b -> line.append("\\v");
                default -> {
                    if (c == delimiter) {
                        line.append('\\');
                    }
                    line.append(c);
                }
            }
        }
    }

    private void csv(StringBuilder line, String value) {
        char quote = options.quote();
        boolean quoted = value.equals(options.nullString()) || value.equals("\\.");
        for (int i = 0; i < value.length() && !quoted; i++) {
            char c = value.charAt(i);
            quoted = c == options.delimiter() || c == quote || c == '\n' || c == '\r';
        }
        if (!quoted) {
            line.append(value);
            return;
        }
        line.append(quote);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == quote || c == options.escape()) {
                line.append(options.escape());
            }
            line.append(c);
        }
        line.append(quote);
    }
}
