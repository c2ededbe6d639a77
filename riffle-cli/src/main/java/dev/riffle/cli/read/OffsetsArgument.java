package dev.riffle.cli.read;

import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.read.StoppingOffsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses the values of {@code riffle read --from} and {@code --until}: a keyword
 * ({@code earliest} or {@code latest}), a time, or offsets per bucket.
 *
 * <ul>
 *   <li>Times: an ISO-8601 instant ({@code 2024-06-01T00:00:00Z}, {@code 2024-06-01T02:00:00+02:00}),
 *       a local date-time or a date, read as UTC ({@code 2024-06-01T00:00:00}, {@code 2024-06-01}), or
 *       epoch milliseconds ({@code 1717200000000}).
 *   <li>Offsets: {@code BUCKET:OFFSET} pairs separated by commas ({@code 0:100,1:250}); for
 *       partitioned tables each pair is prefixed by its partition ({@code 2024-06-01/0:100}).
 * </ul>
 *
 * <p>Errors are {@link IllegalArgumentException}s whose message names the bad part and the forms
 * that are accepted; the picocli converters below turn them into usage errors.
 */
public final class OffsetsArgument {
    static final String FORMS = "a time (2024-06-01T00:00:00Z, 2024-06-01T00:00:00 or 2024-06-01 in UTC,"
            + " or epoch milliseconds) or bucket offsets (0:100,1:250, or PARTITION/0:100 for partitioned tables)";

    // A value that starts like an ISO date and names no partition or bucket list is meant as a time,
    // so its parse error should talk about times, not about bucket offsets.
    private static final Pattern ISO_DATE_PREFIX = Pattern.compile("\\d{4}-\\d{2}-\\d{2}([Tt ].*)?");
    private static final Pattern EPOCH_MILLIS = Pattern.compile("\\d+");
    private static final Pattern BUCKET_OFFSET = Pattern.compile("(\\d+):(\\d+)");

    private OffsetsArgument() {}

    /** {@code earliest}, a time, or bucket offsets (unlisted buckets start at the earliest offset). */
    public static StartingOffsets parseStart(String text) {
        String value = checkNotBlank(text);
        if (value.equalsIgnoreCase("earliest")) {
            return StartingOffsets.earliest();
        }
        if (value.equalsIgnoreCase("latest")) {
            throw new IllegalArgumentException("'latest' is where a read stops, not where it starts; expected earliest or "
                    + FORMS);
        }
        return isTime(value)
                ? StartingOffsets.timestamp(parseTime(value))
                : StartingOffsets.explicit(parseBucketOffsets(value, "earliest"));
    }

    /** {@code latest}, a time, or bucket offsets (then only the listed buckets are read). */
    public static StoppingOffsets parseStop(String text) {
        String value = checkNotBlank(text);
        if (value.equalsIgnoreCase("latest")) {
            return StoppingOffsets.latest();
        }
        if (value.equalsIgnoreCase("earliest")) {
            throw new IllegalArgumentException("'earliest' is where a read starts, not where it stops; expected latest or "
                    + FORMS);
        }
        return isTime(value)
                ? StoppingOffsets.timestamp(parseTime(value))
                : StoppingOffsets.explicit(parseBucketOffsets(value, "latest"));
    }

    /** A time as epoch milliseconds; local date-times and dates are read as UTC. */
    static long parseTime(String value) {
        if (EPOCH_MILLIS.matcher(value).matches()) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + value + "' is too large for epoch milliseconds");
            }
        }
        // Shells make "2024-06-01 00:00:00" easy to type; ISO-8601 wants the T.
        String iso = value.replace(' ', 'T').toUpperCase(Locale.ROOT);
        try {
            // A zone or offset says which instant is meant; without one, UTC (as the help says).
            if (iso.endsWith("Z") || hasOffset(iso)) {
                // OffsetDateTime rather than Instant: its errors name the bad field ("MonthOfYear").
                return OffsetDateTime.parse(iso).toInstant().toEpochMilli();
            }
            if (iso.indexOf('T') < 0) {
                return LocalDate.parse(iso).atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            }
            return LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            // The cause says which field is out of range; without one the text did not fit the pattern.
            String reason = e.getCause() != null ? e.getCause().getMessage()
                    : "unexpected text at character " + (e.getErrorIndex() + 1);
            throw new IllegalArgumentException("'" + value + "' is not a valid time (" + reason
                    + "); expected e.g. 2024-06-01T00:00:00Z, 2024-06-01T00:00:00 (UTC) or epoch milliseconds");
        }
    }

    /**
     * {@code B:OFF} pairs, each optionally prefixed by {@code PARTITION/}.
     *
     * @param keyword the keyword that would also be accepted, for the error message
     */
    static Map<BucketRef, Long> parseBucketOffsets(String value, String keyword) {
        if (value.indexOf(':') < 0) {
            throw new IllegalArgumentException("'" + value + "' is not " + keyword + ", " + FORMS);
        }
        Map<BucketRef, Long> offsets = new LinkedHashMap<>();
        // -1 keeps trailing empty entries, so "0:1," is reported instead of silently accepted.
        for (String rawEntry : value.split(",", -1)) {
            String entry = rawEntry.strip();
            if (entry.isEmpty()) {
                throw new IllegalArgumentException("'" + value + "' has an empty entry; expected BUCKET:OFFSET pairs"
                        + " separated by commas, e.g. 0:100,1:250");
            }
            // Partition names may contain almost anything, but not the bucket part: split at the last slash.
            int slash = entry.lastIndexOf('/');
            Optional<String> partition = Optional.empty();
            String pair = entry;
            if (slash >= 0) {
                String name = entry.substring(0, slash).strip();
                if (name.isEmpty()) {
                    throw new IllegalArgumentException("'" + entry + "' has an empty partition name; expected"
                            + " PARTITION/BUCKET:OFFSET, e.g. 2024-06-01/0:100");
                }
                partition = Optional.of(name);
                pair = entry.substring(slash + 1).strip();
            }
            Matcher m = BUCKET_OFFSET.matcher(pair);
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + entry + "' is not BUCKET:OFFSET (two whole numbers, e.g. 0:100"
                        + (slash >= 0 ? ", after PARTITION/" : ", or PARTITION/0:100 for partitioned tables") + ")");
            }
            BucketRef bucket = new BucketRef(partition, parseNumber(m.group(1), "bucket", entry, Integer.MAX_VALUE));
            long offset = parseNumber(m.group(2), "offset", entry, Long.MAX_VALUE);
            if (offsets.put(bucket, offset) != null) {
                throw new IllegalArgumentException("Bucket " + bucket + " is given twice in '" + value + "'");
            }
        }
        return offsets;
    }

    private static int parseNumber(String digits, String what, String entry, int max) {
        return (int) parseNumber(digits, what, entry, (long) max);
    }

    private static long parseNumber(String digits, String what, String entry, long max) {
        try {
            long number = Long.parseLong(digits);
            if (number <= max) {
                return number;
            }
        } catch (NumberFormatException e) {
            // too many digits for a long: reported below, like any number out of range
        }
        throw new IllegalArgumentException("The " + what + " in '" + entry + "' is out of range (at most " + max + ")");
    }

    private static boolean isTime(String value) {
        return EPOCH_MILLIS.matcher(value).matches()
                || (ISO_DATE_PREFIX.matcher(value).matches() && value.indexOf('/') < 0 && value.indexOf(',') < 0);
    }

    private static boolean hasOffset(String iso) {
        int t = iso.indexOf('T');
        return t > 0 && (iso.indexOf('+', t) > 0 || iso.indexOf('-', t) > 0);
    }

    private static String checkNotBlank(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("The value is empty; expected a keyword, " + FORMS);
        }
        return text.strip();
    }

    /** {@code --from}: a bad value is a usage error (exit 2) with the parser's message. */
    public static final class StartConverter implements CommandLine.ITypeConverter<StartingOffsets> {
        @Override
        public StartingOffsets convert(String value) {
            try {
                return parseStart(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** {@code --until}: a bad value is a usage error (exit 2) with the parser's message. */
    public static final class StopConverter implements CommandLine.ITypeConverter<StoppingOffsets> {
        @Override
        public StoppingOffsets convert(String value) {
            try {
                return parseStop(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
