package dev.riffle.sql.exec;

import dev.riffle.sql.statement.ExecutionGuard;

import static java.util.Objects.requireNonNull;

/**
 * Text a regular expression runs over that checks its statement's guard as it is read: a pattern
 * that backtracks for ages ({@code (a+)+b} over a long run of {@code a}) stops at the statement's
 * deadline or cancel, as every other loop of a statement does, instead of holding a core after
 * its client has gone.
 *
 * <pre>{@code
 * boolean found = pattern.matcher(new GuardedText(text, ExecutionGuard.of(root))).find();
 * }</pre>
 */
public final class GuardedText implements CharSequence {
    /** Reads between checks: a check costs a volatile read and, rarely, a clock read. */
    private static final int READS_PER_CHECK = 1 << 14;

    private final String text;
    private final int start;
    private final int end;
    private final ExecutionGuard guard;
    private final int[] reads;

    public GuardedText(String text, ExecutionGuard guard) {
        this(requireNonNull(text, "text is null"), 0, text.length(), requireNonNull(guard, "guard is null"),
                new int[1]);
    }

    private GuardedText(String text, int start, int end, ExecutionGuard guard, int[] reads) {
        this.text = text;
        this.start = start;
        this.end = end;
        this.guard = guard;
        this.reads = reads;
    }

    @Override
    public char charAt(int index) {
        if (++reads[0] >= READS_PER_CHECK) {
            reads[0] = 0;
            guard.check();
        }
        return text.charAt(start + index);
    }

    @Override
    public int length() {
        return end - start;
    }

    @Override
    public CharSequence subSequence(int from, int to) {
        return new GuardedText(text, start + from, start + to, guard, reads);
    }

    @Override
    public String toString() {
        return text.substring(start, end);
    }
}
