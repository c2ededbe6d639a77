package dev.riffle.pgwire.copy;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.types.RowBytes;
import java.util.Arrays;
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
    /** Every character of a number's text: digits, sign, point, exponent, NaN, Infinity, t and f. */
    private static final String NUMBER_CHARACTERS = "0123456789+-.eENaInfinity";
    private final boolean csv;
    private final byte delimiter;
    private final byte quote;
    private final byte escape;
    private final byte[] nullBytes;
    /** Whether a number's text never needs escaping or quoting with these options. */
    private final boolean numbersAsWritten;
    private byte[] copy = new byte[64];

    public CopyLineWriter(CopyOptions options) {
        requireNonNull(options, "options is null");
        this.csv = options.format() == CopyOptions.Format.CSV;
        // COPY's options are one byte each (CopyCommand takes no other)
        this.delimiter = (byte) options.delimiter();
        this.quote = (byte) options.quote();
        this.escape = (byte) options.escape();
        this.nullBytes = options.nullString().getBytes(UTF_8);
        this.numbersAsWritten = NUMBER_CHARACTERS.indexOf(options.delimiter()) < 0
                && (!csv || NUMBER_CHARACTERS.indexOf(options.quote()) < 0 && (options.nullString().isEmpty()
                        || !options.nullString().chars().allMatch(c -> NUMBER_CHARACTERS.indexOf(c) >= 0)));
    }

    /** One row as a line, with its newline; {@code cells} holds each value's text, empty for NULL. */
    public String line(List<Optional<String>> cells) {
        RowBytes line = new RowBytes();
        for (int c = 0; c < cells.size(); c++) {
            if (c > 0) {
                delimiter(line);
            }
            Optional<String> cell = cells.get(c);
            if (cell.isEmpty()) {
                nullCell(line);
            } else {
                int start = line.length();
                line.writeUtf8(cell.get());
                endCell(line, start);
            }
        }
        endLine(line);
        return new String(line.array(), 0, line.length(), UTF_8);
    }

    /** The header line: the column names, written as values. */
    public String header(List<String> columns) {
        return line(columns.stream().map(Optional::of).toList());
    }

    /** Writes the delimiter between two cells. */
    public void delimiter(RowBytes out) {
        out.writeByte(delimiter);
    }

    /** Writes a NULL. */
    public void nullCell(RowBytes out) {
        out.writeBytes(nullBytes);
    }

    /** Writes the end of a line. */
    public void endLine(RowBytes out) {
        out.writeByte('\n');
    }

    /**
     * Escapes (text) or quotes (CSV) the value whose UTF-8 text was written into {@code out} from
     * {@code start} on, if it needs it; most values do not, and are left as written. Every byte
     * this looks for is ASCII, and no byte of a multi-byte UTF-8 character is.
     */
    public void endCell(RowBytes out, int start) {
        endCell(out, start, false);
    }

    /**
     * As {@link #endCell(RowBytes, int)}; {@code number} says the value is a number's or a
     * boolean's text, which most options leave as it is without looking.
     */
    public void endCell(RowBytes out, int start, boolean number) {
        if (number && numbersAsWritten) {
            return;
        }
        int end = out.length();
        byte[] written = out.array();
        if (csv ? !needsQuotes(written, start, end) : !needsEscapes(written, start, end)) {
            return;
        }
        int length = end - start;
        if (length > copy.length) {
            copy = new byte[Math.max(length, copy.length * 2)];
        }
        System.arraycopy(written, start, copy, 0, length);
        out.truncate(start);
        if (csv) {
            quoted(out, length);
        } else {
            escaped(out, length);
        }
    }

    private boolean needsEscapes(byte[] written, int start, int end) {
        for (int i = start; i < end; i++) {
            byte b = written[i];
            if (b == '\\' || b == delimiter || (b >= 0 && b < 0x20)) {
                return true;
            }
        }
        return false;
    }

    private void escaped(RowBytes out, int length) {
        for (int i = 0; i < length; i++) {
            byte b = copy[i];
            switch (b) {
                case '\\' -> escape(out, '\\');
                case '\n' -> escape(out, 'n');
                case '\r' -> escape(out, 'r');
                case '\t' -> escape(out, 't');
                case '\b' -> escape(out, 'b');
                case '\f' -> escape(out, 'f');
                case 0x0b -> escape(out, 'v');
                default -> {
                    if (b == delimiter) {
                        out.writeByte('\\');
                    }
                    out.writeByte(b);
                }
            }
        }
    }

    private static void escape(RowBytes out, char escaped) {
        out.writeByte('\\');
        out.writeByte(escaped);
    }

    /** As PostgreSQL's CSV writer: the delimiter, a quote, a line break, the NULL text or {@code \.} alone. */
    private boolean needsQuotes(byte[] written, int start, int end) {
        int length = end - start;
        if (Arrays.equals(written, start, end, nullBytes, 0, nullBytes.length)
                || length == 2 && written[start] == '\\' && written[start + 1] == '.') {
            return true;
        }
        for (int i = start; i < end; i++) {
            byte b = written[i];
            if (b == delimiter || b == quote || b == '\n' || b == '\r') {
                return true;
            }
        }
        return false;
    }

    private void quoted(RowBytes out, int length) {
        out.writeByte(quote);
        for (int i = 0; i < length; i++) {
            byte b = copy[i];
            if (b == quote || b == escape) {
                out.writeByte(escape);
            }
            out.writeByte(b);
        }
        out.writeByte(quote);
    }
}
