package dev.riffle.pgwire.copy;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * Reads COPY FROM data back into rows of fields, as PostgreSQL's COPY FROM does: in text format
 * one line per row (a trailing {@code \r} dropped), fields split at the delimiter, backslash
 * escapes undone ({@code \t}, {@code \n}, {@code \\}, octal {@code \123}, hex {@code \x4a}, ...) and
 * a field written as the NULL string ({@code \N}) is NULL; in CSV fields may be quoted (a doubled
 * quote stands for itself, a quoted field may span lines) and an unquoted field equal to the NULL
 * string (empty by default) is NULL. The header line is skipped, and a line {@code \.} ends the
 * data. Each row carries the line it starts on, for error messages.
 *
 * <pre>{@code
 * CopyLineReader rows = new CopyLineReader("1,a\n2,\n", CopyOptions.defaults(CopyOptions.Format.CSV));
 * while (rows.hasNext()) { CopyLineReader.Row row = rows.next(); }   // [1, a] line 1, [2, NULL] line 2
 * }</pre>
 */
public final class CopyLineReader {
    /** One row: the line it starts on (1-based) and its fields, empty for NULL. */
    public record Row(long line, List<Optional<String>> fields) {
        public Row {
            fields = java.util.Collections.unmodifiableList(new ArrayList<>(fields));
        }
    }

    private final String data;
    private final CopyOptions options;
    private int position;
    private long line = 1;
    private boolean ended;
    private Row next;

    public CopyLineReader(String data, CopyOptions options) {
        this.data = requireNonNull(data, "data is null");
        this.options = requireNonNull(options, "options is null");
        if (options.header()) {
            read(); // the header's fields are not checked: PostgreSQL's HEADER true skips the line
            next = null;
        }
    }

    public boolean hasNext() {
        if (next == null && !ended) {
            read();
        }
        return next != null;
    }

    /**
     * The next row.
     *
     * @throws CopyFormatException when the data is not well-formed
     */
    public Row next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more COPY rows");
        }
        Row row = next;
        next = null;
        return row;
    }

    private void read() {
        if (position >= data.length() || endMarker()) {
            ended = true;
            next = null;
            return;
        }
        long start = line;
        List<Optional<String>> fields = options.format() == CopyOptions.Format.CSV ? csvRow() : textRow();
        next = new Row(start, fields);
    }

    /** A line {@code \.} ends the data, as in PostgreSQL. */
    private boolean endMarker() {
        if (!data.startsWith("\\.", position)) {
            return false;
        }
        int after = position + 2;
        return after == data.length() || data.charAt(after) == '\n'
                || (data.charAt(after) == '\r' && (after + 1 == data.length() || data.charAt(after + 1) == '\n'));
    }

    private List<Optional<String>> textRow() {
        int end = data.indexOf('\n', position);
        int following = end < 0 ? data.length() : end + 1;
        if (end < 0) {
            end = data.length();
        }
        if (end > position && data.charAt(end - 1) == '\r') {
            end--;
        }
        List<Optional<String>> fields = new ArrayList<>();
        int fieldStart = position;
        int i = position;
        while (true) {
            if (i == end || data.charAt(i) == options.delimiter()) {
                fields.add(textField(fieldStart, i));
                if (i == end) {
                    break;
                }
                fieldStart = i + 1;
            } else if (data.charAt(i) == '\\' && i + 1 < end) {
                i++; // an escaped delimiter does not end the field
            }
            i++;
        }
        position = following;
        line++;
        return fields;
    }

    private Optional<String> textField(int start, int end) {
        String raw = data.substring(start, end);
        if (raw.equals(options.nullString())) {
            return Optional.empty();
        }
        if (raw.indexOf('\\') < 0) {
            return Optional.of(raw);
        }
        StringBuilder value = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c != '\\' || i + 1 == raw.length()) {
                value.append(c);
                continue;
            }
            char e = raw.charAt(++i);
            switch (e) {
                case 'b' -> value.append('\b');
                case 'f' -> value.append('\f');
                case 'n' -> value.append('\n');
                case 'r' -> value.append('\r');
                case 't' -> value.append('\t');
                case 'v' -> value.append((char) 0x0b);
                case 'x' -> {
                    int digits = 0;
                    int code = 0;
                    while (digits < 2 && i + 1 < raw.length() && Character.digit(raw.charAt(i + 1), 16) >= 0) {
                        code = code * 16 + Character.digit(raw.charAt(++i), 16);
                        digits++;
                    }
                    value.append(digits == 0 ? 'x' : (char) code);
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int code = e - '0';
                        for (int d = 0; d < 2 && i + 1 < raw.length() && raw.charAt(i + 1) >= '0'
                                && raw.charAt(i + 1) <= '7'; d++) {
                            code = code * 8 + raw.charAt(++i) - '0';
                        }
                        value.append((char) code);
                    } else {
                        value.append(e); // \\ and any other escaped character stand for themselves
                    }
                }
            }
        }
        return Optional.of(value.toString());
    }

    private List<Optional<String>> csvRow() {
        List<Optional<String>> fields = new ArrayList<>();
        char quote = options.quote();
        char escape = options.escape();
        char delimiter = options.delimiter();
        while (true) {
            StringBuilder value = new StringBuilder();
            boolean quoted = false;
            int rawStart = position;
            while (position < data.length()) {
                char c = data.charAt(position);
                if (c == delimiter || c == '\n' || c == '\r') {
                    break;
                }
                if (c == quote) {
                    quoted = true;
                    long opened = line;
                    position++;
                    while (true) {
                        if (position >= data.length()) {
                            throw new CopyFormatException("unterminated CSV quoted field (opened on line " + opened
                                    + ")");
                        }
                        char q = data.charAt(position);
                        if (q == escape && position + 1 < data.length()
                                && (data.charAt(position + 1) == quote || data.charAt(position + 1) == escape)
                                && (escape != quote || data.charAt(position + 1) == quote)) {
                            value.append(data.charAt(position + 1));
                            position += 2;
                        } else if (q == quote) {
                            position++;
                            break;
                        } else {
                            if (q == '\n') {
                                line++;
                            }
                            value.append(q);
                            position++;
                        }
                    }
                } else {
                    value.append(c);
                    position++;
                }
            }
            String raw = data.substring(rawStart, position);
            fields.add(!quoted && raw.equals(options.nullString()) ? Optional.empty() : Optional.of(value.toString()));
            if (position < data.length() && data.charAt(position) == delimiter) {
                position++;
                continue;
            }
            if (position < data.length() && data.charAt(position) == '\r') {
                position++;
            }
            if (position < data.length() && data.charAt(position) == '\n') {
                position++;
            }
            line++;
            return fields;
        }
    }
}
