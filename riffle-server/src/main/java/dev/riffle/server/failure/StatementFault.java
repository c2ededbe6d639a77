package dev.riffle.server.failure;

import dev.riffle.server.failure.Failures.Failure;
import java.sql.SQLException;
import java.time.DateTimeException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A statement's own fault, found beneath whatever wraps it: a value it computes or reads that is
 * not a value of its type, a function it names that takes no such arguments, a grouping it gets
 * wrong. These are the user's errors (an invalid argument with a code saying which), however deep
 * in the execution of generated code they surfaced, never an internal failure of the server.
 *
 * <p>Codes: {@code division_by_zero}, {@code numeric_out_of_range}, {@code invalid_text_representation},
 * {@code invalid_datetime}, {@code cardinality_violation}, {@code feature_not_supported},
 * {@code undefined_function}, {@code grouping_error}, {@code invalid_regular_expression}.
 */
final class StatementFault {
    private static final Pattern UNDEFINED_FUNCTION = Pattern.compile(
            "No match found for function signature|Cannot apply '[^']+' to arguments of type");
    private static final Pattern GROUPING = Pattern.compile(
            "Aggregate expression is illegal in|is not being grouped|Aggregate expressions cannot be nested");
    private static final Pattern DATETIME = Pattern.compile(
            "Invalid (DATE|TIME|TIMESTAMP)[A-Z_ ]* value|field is out of range|Invalid date|Unparseable date");

    /** The SQLSTATE of a {@link SQLException} that names the date or time text it could not read. */
    static final String INVALID_DATETIME_FORMAT = "22007";

    private StatementFault() {}

    static Optional<Failure> of(Throwable failure, String message) {
        if (UNDEFINED_FUNCTION.matcher(message).find()) {
            return fault("undefined_function", message);
        }
        if (GROUPING.matcher(message).find()) {
            return fault("grouping_error", message);
        }
        Throwable wrapper = null;
        for (Throwable cause = failure; cause != null;
                wrapper = cause, cause = cause.getCause() == cause ? null : cause.getCause()) {
            String why = cause.getMessage() == null ? "" : cause.getMessage();
            if (cause instanceof ArithmeticException) {
                return why.toLowerCase(Locale.ROOT).contains("by zero")
                        ? fault("division_by_zero", "division by zero")
                        : fault("numeric_out_of_range", "value out of range: " + why);
            }
            if (cause instanceof NumberFormatException) {
                return fault("invalid_text_representation", "invalid input syntax for a number: "
                        + why.replaceFirst("^For input string: ", ""));
            }
            if (cause instanceof DateTimeException || (cause instanceof IllegalArgumentException
                    && DATETIME.matcher(why).find())) {
                // A wrapper that already says which value was wrong (a parameter, by its number) says more.
                return fault("invalid_datetime", wrapper instanceof SQLException described
                        && INVALID_DATETIME_FORMAT.equals(described.getSQLState()) ? described.getMessage() : why);
            }
            if (cause instanceof PatternSyntaxException || (cause instanceof IllegalArgumentException
                    && why.startsWith("invalid regular expression"))) {
                return fault("invalid_regular_expression", why);
            }
            if (cause instanceof IllegalArgumentException && why.startsWith("Invalid UUID string")) {
                return fault("invalid_text_representation", why);
            }
            if (cause instanceof IllegalStateException && why.startsWith("more than one value in agg SINGLE_VALUE")) {
                return fault("cardinality_violation", "more than one row returned by a subquery used as an"
                        + " expression");
            }
            if (cause instanceof UnsupportedOperationException && !why.isEmpty()) {
                return fault("feature_not_supported", why);
            }
        }
        return Optional.empty();
    }

    private static Optional<Failure> fault(String code, String message) {
        return Optional.of(new Failure(FailureKind.INVALID_ARGUMENT, code, message, Map.of()));
    }
}
