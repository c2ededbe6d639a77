package dev.riffle.sql.statement;

import java.util.Optional;
import org.apache.calcite.schema.SchemaPlus;

/**
 * A root schema whose statements run under the limits of its session: how an execution's guard
 * finds the limits of the connection it runs for without knowing the catalog that implements it.
 *
 * <pre>{@code
 * StatementLimits limits = LimitedSchema.limitsOf(context.getRootSchema()).orElse(StatementLimits.DEFAULT);
 * }</pre>
 */
public interface LimitedSchema {
    /** What the statements over this schema may cost. */
    StatementLimits limits();

    /** The limits of {@code root}, when it is a Riffle root schema (empty for another, or none). */
    static Optional<StatementLimits> limitsOf(SchemaPlus root) {
        if (root == null) {
            return Optional.empty();
        }
        try {
            LimitedSchema schema = root.unwrap(LimitedSchema.class);
            return schema == null ? Optional.empty() : Optional.of(schema.limits());
        } catch (ClassCastException e) {
            return Optional.empty(); // another kind of root schema
        }
    }
}
