package dev.riffle.core.merge;

import org.apache.arrow.vector.VarCharVector;

/** What a changelog row does to its key: {@code -U} and {@code -D} remove it, {@code +I}/{@code +U} set it. */
final class ChangeKinds {
    private ChangeKinds() {}

    /** Whether row {@code row} of a {@code _change_type} column removes its key (its text starts with '-'). */
    static boolean removes(VarCharVector changeTypes, int row) {
        long start = changeTypes.getStartOffset(row);
        return changeTypes.getDataBuffer().getByte(start) == '-';
    }
}
