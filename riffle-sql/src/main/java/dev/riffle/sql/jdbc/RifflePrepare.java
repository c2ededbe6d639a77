package dev.riffle.sql.jdbc;

import dev.riffle.sql.catalog.FlussRootSchema;
import dev.riffle.sql.dialect.CaseInsensitiveOperators;
import dev.riffle.sql.dialect.ColumnNames;
import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.dialect.PostgresTypeCoercion;
import dev.riffle.sql.exec.PreparedTables;
import dev.riffle.sql.planner.DirectReadMatcher;
import dev.riffle.sql.planner.FlussRules;
import dev.riffle.sql.planner.GuardedInput;
import dev.riffle.sql.planner.JoinOrderProgram;
import dev.riffle.sql.planner.MaterializedInput;
import dev.riffle.sql.planner.PlannedTables;
import dev.riffle.sql.statement.DirectRead;
import dev.riffle.sql.statement.StatementLimits;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.ConvertToChecked;

/**
 * Calcite's statement preparation with Riffle's rules in every planner from the start, so that
 * plans without a Fluss scan (an {@code INSERT ... VALUES}) still meet the rule that writes to
 * Fluss.
 */
final class RifflePrepare extends CalcitePrepareImpl {
    /** The statements Calcite's {@code CalcitePrepareImpl} prepares without its parser (pools' probes). */
    private static final java.util.Set<String> CALCITE_SHORTCUTS = java.util.Set.of("SELECT 1", "select 1",
            "SELECT 1 FROM DUAL", "select 1 from dual", "values 1", "VALUES 1");

    /** The direct read of the statement being prepared, found when its plan is implemented (one per statement). */
    private java.util.Optional<? extends DirectRead> directRead = java.util.Optional.empty();
    /** The tables the statement being prepared reads or writes, found when its plan is implemented. */
    private java.util.List<org.apache.fluss.metadata.TableInfo> tables = java.util.List.of();

    @Override
    protected CalcitePreparingStmt getPreparingStmt(org.apache.calcite.jdbc.CalcitePrepare.Context context,
            java.lang.reflect.Type elementType, CalciteCatalogReader catalogReader, RelOptPlanner planner) {
        JavaTypeFactory typeFactory = context.getTypeFactory();
        EnumerableRel.Prefer prefer = elementType == Object[].class
                ? EnumerableRel.Prefer.ARRAY : EnumerableRel.Prefer.CUSTOM;
        Convention convention = enableBindable ? BindableConvention.INSTANCE : EnumerableConvention.INSTANCE;
        return new CalcitePreparingStmt(this, context, catalogReader, typeFactory, context.getRootSchema(), prefer,
                createCluster(planner, new RexBuilder(typeFactory)), convention, createConvertletTable()) {
            @Override
            public PreparedResult prepareSql(SqlNode sqlQuery, Class runtimeClass, SqlValidator validator,
                    boolean needsValidation) {
                limits(context).check(sqlQuery); // parsed, not yet validated or planned
                // PostgreSQL's names for unnamed columns (count, ?column?), not Calcite's EXPR$0
                return super.prepareSql(ColumnNames.name(sqlQuery), runtimeClass, validator, needsValidation);
            }

            @Override
            protected SqlValidator createSqlValidator(Prepare.CatalogReader catalogReader,
                    UnaryOperator<SqlValidator.Config> configTransform) {
                if (dialect(context) != Dialect.POSTGRESQL) {
                    return super.createSqlValidator(catalogReader, configTransform);
                }
                // PostgreSQL's function names are found whatever their case; its tables and columns by theirs
                CalciteConnectionConfig config = context.config();
                SqlOperatorTable functions = new CaseInsensitiveOperators(config.fun(
                        SqlOperatorTable.class,
                        SqlStdOperatorTable.instance()));
                SqlValidator.Config validatorConfig = configTransform.apply(SqlValidator.Config.DEFAULT
                        .withLenientOperatorLookup(config.lenientOperatorLookup())
                        .withConformance(Dialect.POSTGRESQL.conformance())
                        .withDefaultNullCollation(config.defaultNullCollation())
                        .withIdentifierExpansion(true)
                        .withTypeCoercionFactory(PostgresTypeCoercion::new));
                // the schemas' functions first: pg_catalog's current_schema() is PostgreSQL's, not Calcite's
                return new CalciteSqlValidator(
                        SqlOperatorTables.chain(catalogReader, functions),
                        (CalciteCatalogReader) catalogReader, context.getTypeFactory(), validatorConfig);
            }

            @Override
            protected org.apache.calcite.tools.Program getProgram() {
                // a join of many tables joined in the FROM clause's order meets cross products
                return org.apache.calcite.tools.Programs.sequence(JoinOrderProgram.INSTANCE, super.getProgram());
            }

            @Override
            protected RelRoot trimUnusedFields(RelRoot root) {
                RelRoot trimmed = super.trimUnusedFields(root);
                if (dialect(context) != Dialect.POSTGRESQL) {
                    return trimmed;
                }
                // PostgreSQL's integer arithmetic fails on overflow (22003) where Calcite's wraps
                // around; Calcite checks it only under conformances that are not the PostgreSQL one.
                return trimmed.withRel(new ConvertToChecked(trimmed.rel.getCluster().getRexBuilder(), true)
                        .visit(trimmed.rel));
            }

            @Override
            protected PreparedResult implement(RelRoot root) {
                // a nested-loop join would read its inner Fluss table again for every outer row
                root = root.withRel(MaterializedInput.innersOf(root.rel));
                directRead = DirectReadMatcher.match(root);
                tables = PlannedTables.of(root.rel);
                // every loop of the operators checks the execution's deadline, cancel and budgets
                return super.implement(root.withRel(GuardedInput.everyEdgeOf(root.rel)));
            }
        };
    }

    @Override
    protected RelOptPlanner createPlanner(org.apache.calcite.jdbc.CalcitePrepare.Context prepareContext,
            org.apache.calcite.plan.Context externalContext, RelOptCostFactory costFactory) {
        RelOptPlanner planner = super.createPlanner(prepareContext, externalContext, costFactory);
        FlussRules.RULES.forEach(planner::addRule);
        // ORDER BY ... LIMIT over what is not a scan (a join's rows) keeps offset + fetch rows, not
        // all of them: Calcite has the operator, but not among its default rules.
        planner.addRule(EnumerableRules.ENUMERABLE_LIMIT_SORT_RULE);
        return planner;
    }

    /**
     * Statements Riffle refuses while planning (a DELETE on a log table) fail inside a rule; the
     * user should read the reason, not Calcite's "Error while applying rule" around it.
     */
    @Override
    public <T> CalciteSignature<T> prepareSql(org.apache.calcite.jdbc.CalcitePrepare.Context context, Query<T> query,
            java.lang.reflect.Type elementType, long maxRowCount) {
        // Before the parser, whose time grows faster than the text.
        limits(context).check(query.sql);
        if (query.sql != null && CALCITE_SHORTCUTS.contains(query.sql)) {
            // Calcite answers these few texts without parsing them, naming the column EXPR$0; parsed,
            // the column gets its PostgreSQL name (?column?)
            query = Query.of(query.sql + " ");
        }
        Optional<FlussRootSchema> root = context.getRootSchema().schema instanceof FlussRootSchema fluss
                ? Optional.of(fluss) : Optional.empty();
        if (query.sql != null && root.isPresent()) {
            Optional<CalciteSignature<?>> kept = root.get().plans().get(query.sql, schemaPath(context), maxRowCount,
                    root.get().session());
            if (kept.isPresent()) {
                @SuppressWarnings("unchecked")
                CalciteSignature<T> plan = (CalciteSignature<T>) kept.get();
                return plan;
            }
        }
        try {
            CalciteSignature<T> signature = ConstantFailures.guard(super.prepareSql(context, query, elementType,
                    maxRowCount));
            directRead.ifPresent(read -> signature.internalParameters.put(DirectRead.KEY, read));
            if (!tables.isEmpty()) {
                signature.internalParameters.put(PreparedTables.KEY, tables);
            }
            // Queries only: DDL runs while it is planned.
            if (query.sql != null && root.isPresent() && signature.statementType == Meta.StatementType.SELECT) {
                root.get().plans().put(query.sql, schemaPath(context), maxRowCount, signature);
            }
            return signature;
        } catch (RuntimeException e) {
            Throwable cause = e;
            while (cause.getMessage() != null && cause.getMessage().startsWith("Error while applying rule")
                    && cause.getCause() instanceof RuntimeException inner) {
                cause = inner;
            }
            Optional<String> hint = UnknownNameHint.forMessage(cause.getMessage(), query.sql, context);
            if (hint.isPresent()) {
                throw new IllegalArgumentException(cause.getMessage() + hint.get(), cause);
            }
            throw (RuntimeException) cause;
        }
    }

    private static java.util.List<String> schemaPath(org.apache.calcite.jdbc.CalcitePrepare.Context context) {
        java.util.List<String> path = context.getDefaultSchemaPath();
        return path == null ? java.util.List.of() : path;
    }

    /** The SQL dialect of the connection a statement is prepared on. */
    private static Dialect dialect(org.apache.calcite.jdbc.CalcitePrepare.Context context) {
        return context.getRootSchema().schema instanceof FlussRootSchema root ? root.dialect() : Dialect.CALCITE;
    }

    /** The limits of the connection a statement is prepared on. */
    private static StatementLimits limits(org.apache.calcite.jdbc.CalcitePrepare.Context context) {
        return context.getRootSchema().schema instanceof FlussRootSchema root ? root.session().limits()
                : StatementLimits.DEFAULT;
    }
}
