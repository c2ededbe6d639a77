package dev.riffle.sql.exec;

import dev.riffle.sql.statement.LimitedSchema;
import dev.riffle.sql.statement.StatementLimits;
import java.util.Optional;
import org.apache.calcite.schema.SchemaPlus;

/**
 * A root schema that belongs to one {@link FlussSession}: how execution finds the session of the
 * connection or statement it runs for without knowing the catalog that implements it.
 *
 * <pre>{@code
 * StatementLimits limits = SessionSchema.sessionOf(context.getRootSchema()).map(FlussSession::limits)
 *         .orElse(StatementLimits.DEFAULT);
 * }</pre>
 */
public interface SessionSchema extends LimitedSchema {
    /** The session this schema's tables are read and written through. */
    FlussSession session();

    @Override
    default StatementLimits limits() {
        return session().limits();
    }

    /** The session of {@code root}, when it is a Riffle root schema (empty for another, or none). */
    static Optional<FlussSession> sessionOf(SchemaPlus root) {
        if (root == null) {
            return Optional.empty();
        }
        try {
            SessionSchema schema = root.unwrap(SessionSchema.class);
            return schema == null ? Optional.empty() : Optional.of(schema.session());
        } catch (ClassCastException e) {
            return Optional.empty(); // another kind of root schema
        }
    }
}
