package dev.riffle.sql.catalog;

import dev.riffle.sql.exec.SessionFunctions;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.exec.FlussSession;
import dev.riffle.sql.exec.PlanCache;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.SchemaVersion;
import org.apache.calcite.schema.Schemas;
import org.apache.calcite.schema.Table;

/** The root SQL schema: one sub-schema per Fluss database, listed live from the cluster. */
public final class FlussRootSchema implements Schema {
    private final FlussSession session;
    /** This connection's plans of queries by SQL text (one root schema per connection). */
    private final PlanCache plans = new PlanCache();
    private final boolean vectorized;

    public FlussRootSchema(FlussSession session) {
        this(session, true);
    }

    /** @param vectorized whether this connection's aggregates over a scan run on Arrow batches (see the driver's {@code vectorized}) */
    public FlussRootSchema(FlussSession session, boolean vectorized) {
        this.session = requireNonNull(session, "session is null");
        this.vectorized = vectorized;
    }

    public boolean vectorized() {
        return vectorized;
    }

    public FlussSession session() {
        return session;
    }

    public PlanCache plans() {
        return plans;
    }

    @Override
    public Schema getSubSchema(String name) {
        return session.databases().contains(name) ? new FlussDatabaseSchema(session, name) : null;
    }

    @Override
    public Set<String> getSubSchemaNames() {
        return new TreeSet<>(session.databases());
    }

    @Override
    public Table getTable(String name) {
        return null;
    }

    @Override
    public Set<String> getTableNames() {
        return Set.of();
    }

    @Override
    public RelProtoDataType getType(String name) {
        return null;
    }

    @Override
    public Set<String> getTypeNames() {
        return Set.of();
    }

    @Override
    public Collection<Function> getFunctions(String name) {
        return SessionFunctions.named(name);
    }

    @Override
    public Set<String> getFunctionNames() {
        return SessionFunctions.names();
    }

    @Override
    public Expression getExpression(SchemaPlus parentSchema, String name) {
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
