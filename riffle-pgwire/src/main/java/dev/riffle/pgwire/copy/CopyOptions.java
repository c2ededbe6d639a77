package dev.riffle.pgwire.copy;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.error.PgException;

/**
 * How the rows of one COPY are written as text: PostgreSQL's {@code text} format (tab-separated,
 * backslash escapes, {@code \N} for NULL) or {@code csv} (comma-separated, double quotes, NULL as
 * an empty unquoted field), with or without a header line of column names.
 *
 * <pre>{@code
 * CopyOptions csv = CopyOptions.defaults(CopyOptions.Format.CSV).withHeader(true);
 * }</pre>
 *
 * @param delimiter the character between fields
 * @param nullString what a NULL is written as (and, unquoted, read as)
 * @param quote CSV only: the quoting character
 * @param escape CSV only: the character that escapes a quote inside a quoted field
 */
public record CopyOptions(Format format, boolean header, char delimiter, String nullString, char quote, char escape) {
    /** The two text formats Riffle serves (binary is not served). */
    public enum Format { TEXT, CSV }

    public CopyOptions {
        requireNonNull(format, "format is null");
        requireNonNull(nullString, "nullString is null");
        if (delimiter == '\n' || delimiter == '\r') {
            throw new PgException("22023", "COPY delimiter cannot be newline or carriage return");
        }
        if (format == Format.TEXT && (delimiter == '\\' || Character.isLetterOrDigit(delimiter) || delimiter == '.')) {
            throw new PgException("22023", "COPY delimiter cannot be \"" + delimiter + "\" in text format");
        }
        if (format == Format.CSV && delimiter == quote) {
            throw new PgException("22023", "COPY delimiter and quote must be different");
        }
        if (nullString.indexOf('\n') >= 0 || nullString.indexOf('\r') >= 0) {
            throw new PgException("22023", "COPY null representation cannot use newline or carriage return");
        }
        if (nullString.indexOf(delimiter) >= 0) {
            throw new PgException("22023", "COPY delimiter must not appear in the NULL specification");
        }
    }

    /** PostgreSQL's defaults for {@code format}. */
    public static CopyOptions defaults(Format format) {
        return format == Format.CSV ? new CopyOptions(format, false, ',', "", '"', '"')
                : new CopyOptions(format, false, '\t', "\\N", '"', '"');
    }

    public CopyOptions withHeader(boolean header) {
        return new CopyOptions(format, header, delimiter, nullString, quote, escape);
    }
}
