package dev.riffle.sql.catalog;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.exec.FlussSession;
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

    public FlussRootSchema(FlussSession session) {
        this.session = requireNonNull(session, "session is null");
    }

    public FlussSession session() {
        return session;
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
        return List.of();
    }

    @Override
    public Set<String> getFunctionNames() {
        return Set.of();
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
