package dev.riffle.sql.catalog;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.dialect.PublicSchema;
import dev.riffle.sql.exec.FlussSession;
import dev.riffle.sql.exec.PlanCache;
import dev.riffle.sql.exec.SessionFunctions;
import dev.riffle.sql.exec.SessionSchema;
import dev.riffle.sql.pgcatalog.PgCatalogSchema;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.SchemaVersion;
import org.apache.calcite.schema.Schemas;
import org.apache.calcite.schema.Table;
import org.apache.calcite.util.BuiltInMethod;

/**
 * The root SQL schema: one sub-schema per Fluss database, listed live from the cluster. In the
 * {@link Dialect#POSTGRESQL} dialect it also holds PostgreSQL's system catalogs
 * ({@code pg_catalog}, {@code information_schema}), whose tables, types and functions also resolve
 * unqualified (PostgreSQL searches {@code pg_catalog} first), takes {@code public} for Fluss's
 * default database {@code fluss} (unless a database is called {@code public}), and finds a
 * database or table whose name differs from the one written only in case when no name matches
 * exactly (PostgreSQL folds unquoted names to lower case; Fluss keeps the case names were created
 * with).
 */
public final class FlussRootSchema implements Schema, SessionSchema {

    private final FlussSession session;
    /** This connection's plans of queries by SQL text (one root schema per connection). */
    private final PlanCache plans = new PlanCache();
    private final boolean vectorized;
    private final Dialect dialect;
    private final RelFactories.TableScanFactory scans;
    private final Optional<PgCatalogSchema> pgCatalog;

    /**
     * @param vectorized whether this connection's aggregates over a scan run on Arrow batches (see
     *     the driver's {@code vectorized})
     * @param dialect the SQL the connection speaks
     * @param scans makes the planner's scan of a table (the catalog does not know the planner's
     *     relational expressions)
     */
    public FlussRootSchema(FlussSession session, boolean vectorized, Dialect dialect,
            RelFactories.TableScanFactory scans) {
        this.session = requireNonNull(session, "session is null");
        this.scans = requireNonNull(scans, "scans is null");
        this.vectorized = vectorized;
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.pgCatalog = dialect == Dialect.POSTGRESQL ? Optional.of(new PgCatalogSchema(session))
                : Optional.empty();
    }

    public Dialect dialect() {
        return dialect;
    }

    public boolean vectorized() {
        return vectorized;
    }

    @Override
    public FlussSession session() {
        return session;
    }

    public PlanCache plans() {
        return plans;
    }

    /**
     * The Fluss database a schema name stands for: the database of that name; in the PostgreSQL
     * dialect {@code public} (when no database is called so) is Fluss's default database, and a
     * name that differs only in case from one database's is that database.
     */
    public String databaseOf(String schema) {
        if (dialect != Dialect.POSTGRESQL) {
            return schema;
        }
        List<String> databases = session.databases();
        if (databases.contains(schema)) {
            return schema;
        }
        if (schema.equals(PublicSchema.NAME)) {
            return PublicSchema.DATABASE;
        }
        return Names.ignoringCase(schema, databases).orElse(schema);
    }

    @Override
    public Schema getSubSchema(String name) {
        List<String> databases = session.databases();
        if (databases.contains(name)) {
            return new FlussDatabaseSchema(session, name, dialect, scans);
        }
        if (pgCatalog.isEmpty()) {
            return null;
        }
        Optional<Schema> system = pgCatalog.get().systemSchema(name);
        if (system.isPresent()) {
            return system.get();
        }
        if (name.equals(PublicSchema.NAME) && databases.contains(PublicSchema.DATABASE)) {
            return new FlussDatabaseSchema(session, PublicSchema.DATABASE, dialect, scans);
        }
        return Names.ignoringCase(name, databases).map(database -> new FlussDatabaseSchema(session, database, dialect, scans))
                .orElse(null);
    }

    @Override
    public Set<String> getSubSchemaNames() {
        Set<String> names = new TreeSet<>(session.databases());
        pgCatalog.ifPresent(catalog -> names.addAll(catalog.systemSchemaNames()));
        return names;
    }

    @Override
    public Table getTable(String name) {
        return pgCatalog.map(catalog -> catalog.getTable(name)).orElse(null);
    }

    @Override
    public Set<String> getTableNames() {
        return Set.of(); // the catalogs' tables resolve here unqualified, but are listed in pg_catalog
    }

    @Override
    public RelProtoDataType getType(String name) {
        return pgCatalog.map(catalog -> catalog.getType(name)).orElse(null);
    }

    @Override
    public Set<String> getTypeNames() {
        return pgCatalog.map(PgCatalogSchema::getTypeNames).orElse(Set.of());
    }

    @Override
    public Collection<Function> getFunctions(String name) {
        Collection<Function> session = SessionFunctions.named(name);
        if (pgCatalog.isEmpty() || !session.isEmpty()) {
            return session;
        }
        return pgCatalog.get().getFunctions(name);
    }

    @Override
    public Set<String> getFunctionNames() {
        Set<String> names = new TreeSet<>(SessionFunctions.names());
        pgCatalog.ifPresent(catalog -> names.addAll(catalog.getFunctionNames()));
        return names;
    }

    @Override
    public Expression getExpression(SchemaPlus parentSchema, String name) {
        if (parentSchema == null) {
            // the root itself: its tables (PostgreSQL's catalogs, unqualified) are found from the statement's context
            return Expressions.call(DataContext.ROOT, BuiltInMethod.DATA_CONTEXT_GET_ROOT_SCHEMA.method);
        }
        return Schemas.subSchemaExpression(parentSchema, name, getClass());
    }

    @Override
    public boolean isMutable() {
        return false;
    }

    @Override
    public Schema snapshot(SchemaVersion version) {
        return this;
    }
}
