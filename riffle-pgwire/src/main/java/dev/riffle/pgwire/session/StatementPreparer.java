package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.error.PgException;
import dev.riffle.pgwire.sql.LocalStatement;
import dev.riffle.pgwire.sql.LocalStatements;
import dev.riffle.pgwire.sql.Placeholders;
import dev.riffle.pgwire.types.ColumnType;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.sql.SqlStatements;
import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.dialect.PgType;
import dev.riffle.sql.dialect.StatementSplitter;
import dev.riffle.sql.engine.InsertValues;
import dev.riffle.sql.engine.StatementShape;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Makes a {@link Prepared} of a statement's text: a statement the PostgreSQL layer answers itself
 * ({@link LocalStatements}), or one for the SQL engine, its {@code $n} placeholders rewritten and,
 * for the extended query protocol, its parameter and column types asked of the engine now (a
 * simple query's statements are shaped by running them).
 *
 * <pre>{@code
 * Prepared prepared = preparer.prepare("s1", "SELECT * FROM t WHERE id = $1", List.of(), true);
 * }</pre>
 */
final class StatementPreparer {
    private final PgSession session;

    StatementPreparer(PgSession session) {
        this.session = requireNonNull(session, "session is null");
    }

    /**
     * @param declared the parameter type OIDs the client declared (0 for "infer it")
     * @param shape whether to ask the engine for the statement's parameters and columns now
     */
    Prepared prepare(String name, String sql, List<Integer> declared, boolean shape) {
        if (StatementSplitter.isBlank(sql)) {
            return new Prepared(name, sql, new Prepared.Plan.Empty(), declaredTypes(declared, 0), List.of(), List.of());
        }
        Optional<LocalStatement> local = LocalStatements.recognize(sql);
        if (local.isPresent() && local.get() instanceof LocalStatement.Copy && shape) {
            throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle serves COPY in the simple query protocol"
                    + " (psql's \\copy, pgjdbc's CopyManager), not as a prepared statement");
        }
        if (local.isPresent()) {
            List<Prepared.Column> columns = local.get().column().map(c -> List.of(Prepared.textColumn(c)))
                    .orElse(List.of());
            return new Prepared(name, sql, new Prepared.Plan.Local(local.get()), declaredTypes(declared, 0), List.of(),
                    columns);
        }
        Placeholders placeholders;
        try {
            placeholders = Placeholders.rewrite(sql);
        } catch (IllegalArgumentException e) {
            throw new PgException("42P02", e.getMessage());
        }
        session.transaction().checkNotFailed();
        StatementShape statementShape = null;
        List<Prepared.Column> columns = new ArrayList<>();
        if (shape) {
            try (RequestContext request = session.open("PostgreSQL parse")) {
                statementShape = SqlStatements.shape(request, placeholders.sql());
                for (Field field : statementShape.rows().getFields()) {
                    columns.add(ColumnOrigins.of(field));
                }
            } catch (SQLException e) {
                throw new SqlFailure(e, placeholders.sql());
            }
            session.running().checkRequested();
        }
        List<PgType> targets = new ArrayList<>();
        if (statementShape != null) {
            List<Field> parameters = statementShape.parameters().getFields();
            for (int i = 0; i < placeholders.order().size(); i++) {
                targets.add(i < parameters.size() ? ColumnType.of(parameters.get(i)).scalar() : PgType.TEXT);
            }
        }
        int count = Math.max(placeholders.count(), declared.size());
        List<PgType> types = new ArrayList<>(declaredTypes(declared, count));
        for (int i = 0; i < placeholders.order().size(); i++) {
            int parameter = placeholders.order().get(i) - 1;
            if (declared.size() <= parameter || declared.get(parameter) == 0) {
                types.set(parameter, targets.get(i));
            }
        }
        return new Prepared(name, sql, new Prepared.Plan.Sql(placeholders, statementShape == null
                ? StatementShape.UPDATE : statementShape, InsertValues.parse(placeholders.sql(), Dialect.POSTGRESQL)),
                types, targets, columns);
    }

    private static List<PgType> declaredTypes(List<Integer> declared, int count) {
        List<PgType> types = new ArrayList<>();
        for (int i = 0; i < Math.max(count, declared.size()); i++) {
            int oid = i < declared.size() ? declared.get(i) : 0;
            types.add(oid == 0 ? PgType.TEXT : PgType.ofOid(oid).orElse(PgType.TEXT));
        }
        return types;
    }
}
