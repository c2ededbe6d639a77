package dev.riffle.core.scan;

import java.nio.charset.StandardCharsets;

/**
 * The change types a Fluss log carries, by the byte Fluss writes for each, and the short strings
 * Riffle shows for them in {@code _change_type} ({@code +A +I -U +U -D}, as Fluss and Flink print
 * them).
 */
final class ChangeTypes {
    private static final byte[][] SHORT_STRINGS = {
        "+A".getBytes(StandardCharsets.US_ASCII), // APPEND_ONLY: rows of log tables
        "+I".getBytes(StandardCharsets.US_ASCII), // INSERT
        "-U".getBytes(StandardCharsets.US_ASCII), // UPDATE_BEFORE
        "+U".getBytes(StandardCharsets.US_ASCII), // UPDATE_AFTER
        "-D".getBytes(StandardCharsets.US_ASCII), // DELETE
    };
    static final byte APPEND_ONLY = 0;
    /** Every short string is this long. */
    static final int SHORT_STRING_LENGTH = 2;

    private ChangeTypes() {}

    static byte[] shortString(byte value) {
        if (value < 0 || value >= SHORT_STRINGS.length) {
            throw new IllegalArgumentException("Unknown Fluss change type byte " + value);
        }
        return SHORT_STRINGS[value];
    }
}
