package dev.riffle.sql.pgcatalog;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.exec.FlussSession;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.SchemaVersion;
import org.apache.calcite.schema.Schemas;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code pg_catalog} as a SQL schema of the {@code postgresql} dialect, computed from
 * the live Fluss catalog ({@link PgCatalogTables}): tables such as {@code pg_class} and
 * {@code pg_attribute} that tools query to find schemas, tables and columns, the type names
 * PostgreSQL's SQL casts to ({@code text}, {@code int4}, {@code regclass}), and PostgreSQL's catalog
 * functions ({@link PgFunctions}). It also answers for {@code information_schema}
 * ({@link #systemSchema}).
 *
 * <pre>{@code
 * SELECT n.nspname, c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
 * }</pre>
 */
public final class PgCatalogSchema implements Schema {
    /** The schema's name. */
    public static final String NAME = "pg_catalog";
    /** The type names casts may name, and what each is in Calcite. */
    private static final Map<String, SqlTypeName> TYPES = Map.ofEntries(
            Map.entry("text", SqlTypeName.VARCHAR), Map.entry("name", SqlTypeName.VARCHAR),
            Map.entry("bpchar", SqlTypeName.VARCHAR), Map.entry("citext", SqlTypeName.VARCHAR),
            Map.entry("json", SqlTypeName.VARCHAR), Map.entry("jsonb", SqlTypeName.VARCHAR),
            Map.entry("uuid", SqlTypeName.VARCHAR), Map.entry("xml", SqlTypeName.VARCHAR),
            Map.entry("int2", SqlTypeName.SMALLINT), Map.entry("int4", SqlTypeName.INTEGER),
            Map.entry("int8", SqlTypeName.BIGINT), Map.entry("float4", SqlTypeName.REAL),
            Map.entry("float8", SqlTypeName.DOUBLE), Map.entry("bool", SqlTypeName.BOOLEAN),
            Map.entry("bytea", SqlTypeName.VARBINARY), Map.entry("timestamptz", SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE),
            Map.entry("oid", SqlTypeName.INTEGER), Map.entry("xid", SqlTypeName.INTEGER),
            Map.entry("regclass", SqlTypeName.INTEGER), Map.entry("regtype", SqlTypeName.INTEGER),
            Map.entry("regnamespace", SqlTypeName.INTEGER), Map.entry("regproc", SqlTypeName.VARCHAR),
            Map.entry("regprocedure", SqlTypeName.VARCHAR), Map.entry("serial", SqlTypeName.INTEGER),
            Map.entry("bigserial", SqlTypeName.BIGINT), Map.entry("smallserial", SqlTypeName.SMALLINT));

    private final CatalogSnapshots snapshots;
    private final InformationSchema informationSchema;
    private final Map<String, CatalogTable> tables;

    public PgCatalogSchema(FlussSession session) {
        this.snapshots = new CatalogSnapshots(requireNonNull(session, "session is null"));
        this.informationSchema = new InformationSchema(snapshots);
        this.tables = PgCatalogTables.of(snapshots, informationSchema.views());
    }

    /** Where the catalog tables' snapshots come from, for the functions that read the catalog. */
    public CatalogSnapshots snapshots() {
        return snapshots;
    }

    /** {@code pg_catalog} (this) or {@code information_schema}, by name; empty for any other name. */
    public Optional<Schema> systemSchema(String name) {
        return switch (name) {
            case NAME -> Optional.of(this);
            case InformationSchema.NAME -> Optional.of(informationSchema);
            default -> Optional.empty();
        };
    }

    public Set<String> systemSchemaNames() {
        return Set.of(NAME, InformationSchema.NAME);
    }

    @Override
    public Table getTable(String name) {
        return tables.get(name);
    }

    @Override
    public Set<String> getTableNames() {
        return new TreeMap<>(tables).keySet();
    }

    @Override
    public RelProtoDataType getType(String name) {
        SqlTypeName type = TYPES.get(name);
        if (type == null) {
            return null;
        }
        return (RelDataTypeFactory factory) -> factory.createTypeWithNullability(type == SqlTypeName.VARCHAR
                ? factory.createSqlType(type, Integer.MAX_VALUE) : factory.createSqlType(type), true);
    }

    @Override
    public Set<String> getTypeNames() {
        return TYPES.keySet();
    }

    @Override
    public Collection<Function> getFunctions(String name) {
        return PgFunctions.named(name);
    }

    @Override
    public Set<String> getFunctionNames() {
        return PgFunctions.names();
    }

    @Override
    public Schema getSubSchema(String name) {
        return null;
    }

    @Override
    public Set<String> getSubSchemaNames() {
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
