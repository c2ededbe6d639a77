package dev.riffle.core.filter;

/**
 * One of SQL's six comparisons, {@code left op right}, decided from the two values' order: what
 * Riffle's vectorized filters, Fluss predicates tested on Arrow batches and {@code HAVING}
 * conditions on groups all test, so each compares the same way.
 *
 * <pre>{@code
 * ComparisonOperator.LESS_THAN.holds(Long.compare(3, 5));   // true: 3 < 5
 * ComparisonOperator.LESS_THAN.flipped();                   // GREATER_THAN: 5 > 3
 * }</pre>
 */
public enum ComparisonOperator {
    EQUAL("="), NOT_EQUAL("<>"), LESS_THAN("<"), LESS_OR_EQUAL("<="), GREATER_THAN(">"), GREATER_OR_EQUAL(">=");

    private final String symbol;

    ComparisonOperator(String symbol) {
        this.symbol = symbol;
    }

    /**
     * Whether {@code left op right} holds for two values in {@code order}: negative when the left
     * is less, zero when they are equal, positive when it is greater (what {@code compare} answers).
     */
    public boolean holds(int order) {
        return switch (this) {
            case EQUAL -> order == 0;
            case NOT_EQUAL -> order != 0;
            case LESS_THAN -> order < 0;
            case LESS_OR_EQUAL -> order <= 0;
            case GREATER_THAN -> order > 0;
            case GREATER_OR_EQUAL -> order >= 0;
        };
    }

    /** The same comparison with its sides swapped ({@code 24 <= c} is {@code c >= 24}). */
    public ComparisonOperator flipped() {
        return switch (this) {
            case LESS_THAN -> GREATER_THAN;
            case LESS_OR_EQUAL -> GREATER_OR_EQUAL;
            case GREATER_THAN -> LESS_THAN;
            case GREATER_OR_EQUAL -> LESS_OR_EQUAL;
            default -> this;
        };
    }

    /** As SQL writes it ({@code <=}). */
    public String symbol() {
        return symbol;
    }
}
