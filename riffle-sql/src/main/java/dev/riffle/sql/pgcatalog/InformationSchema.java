package dev.riffle.sql.pgcatalog;

import static dev.riffle.sql.dialect.PgType.INT4;
import static dev.riffle.sql.dialect.PgType.TEXT;

import dev.riffle.sql.dialect.Oids;
import dev.riffle.sql.dialect.PgType;
import dev.riffle.sql.pgcatalog.CatalogSnapshot.Attribute;
import dev.riffle.sql.pgcatalog.CatalogSnapshot.Relation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.SchemaVersion;
import org.apache.calcite.schema.Schemas;
import org.apache.calcite.schema.Table;

/**
 * The SQL standard's {@code information_schema}, as PostgreSQL has it, computed from a
 * {@link CatalogSnapshot}: {@code schemata}, {@code tables}, {@code columns},
 * {@code table_constraints}, {@code key_column_usage}, {@code constraint_column_usage},
 * {@code referential_constraints}, {@code views} and {@code routines}, with the columns tools read
 * (Grafana's table and column pickers, Metabase's sync, DBeaver). The catalog is {@code riffle}.
 *
 * <pre>{@code
 * SELECT table_name FROM information_schema.tables WHERE table_schema = 'shop'
 * }</pre>
 */
public final class InformationSchema implements Schema {
    public static final String NAME = "information_schema";

    private final Map<String, CatalogTable> tables;

    InformationSchema(CatalogSnapshots snapshots) {
        Map<String, CatalogTable> byName = new LinkedHashMap<>();
        for (CatalogTable table : definitions()) {
            byName.put(table.name(), table.snapshots(snapshots));
        }
        this.tables = byName;
    }

    /** The views, for {@code pg_class} to list. */
    List<CatalogTable> views() {
        return List.copyOf(tables.values());
    }

    private static List<CatalogTable> definitions() {
        int ns = Oids.INFORMATION_SCHEMA;
        String catalog = PgSessions.DATABASE;
        List<CatalogTable> views = new ArrayList<>();
        views.add(CatalogTable.view("schemata", 13_001, ns)
                .column("catalog_name", TEXT).column("schema_name", TEXT).column("schema_owner", TEXT)
                .column("default_character_set_catalog", TEXT).column("default_character_set_schema", TEXT)
                .column("default_character_set_name", TEXT).column("sql_path", TEXT)
                .rows((CatalogSnapshot snapshot, DataContext root) -> map(snapshot.namespaces(), n -> new Object[] {
                    catalog, n.name(), PgSessions.user(root), null, null, null, null})));
        views.add(CatalogTable.view("tables", 13_002, ns)
                .column("table_catalog", TEXT).column("table_schema", TEXT).column("table_name", TEXT)
                .column("table_type", TEXT).column("self_referencing_column_name", TEXT)
                .column("reference_generation", TEXT).column("user_defined_type_catalog", TEXT)
                .column("user_defined_type_schema", TEXT).column("user_defined_type_name", TEXT)
                .column("is_insertable_into", TEXT).column("is_typed", TEXT).column("commit_action", TEXT)
                .rows(snapshot -> map(relations(snapshot), r -> new Object[] {catalog, r.namespace().name(), r.name(),
                    r.kind() == 'v' ? "VIEW" : "BASE TABLE", null, null, null, null, null,
                    r.isFlussTable() ? "YES" : "NO", "NO", null})));
        views.add(CatalogTable.view("columns", 13_003, ns)
                .column("table_catalog", TEXT).column("table_schema", TEXT).column("table_name", TEXT)
                .column("column_name", TEXT).column("ordinal_position", INT4).column("column_default", TEXT)
                .column("is_nullable", TEXT).column("data_type", TEXT).column("character_maximum_length", INT4)
                .column("character_octet_length", INT4).column("numeric_precision", INT4)
                .column("numeric_precision_radix", INT4).column("numeric_scale", INT4)
                .column("datetime_precision", INT4).column("interval_type", TEXT).column("interval_precision", INT4)
                .column("character_set_catalog", TEXT).column("character_set_schema", TEXT)
                .column("character_set_name", TEXT).column("collation_catalog", TEXT)
                .column("collation_schema", TEXT).column("collation_name", TEXT).column("domain_catalog", TEXT)
                .column("domain_schema", TEXT).column("domain_name", TEXT).column("udt_catalog", TEXT)
                .column("udt_schema", TEXT).column("udt_name", TEXT).column("scope_catalog", TEXT)
                .column("scope_schema", TEXT).column("scope_name", TEXT).column("maximum_cardinality", INT4)
                .column("dtd_identifier", TEXT).column("is_self_referencing", TEXT).column("is_identity", TEXT)
                .column("identity_generation", TEXT).column("identity_start", TEXT)
                .column("identity_increment", TEXT).column("identity_maximum", TEXT)
                .column("identity_minimum", TEXT).column("identity_cycle", TEXT).column("is_generated", TEXT)
                .column("generation_expression", TEXT).column("is_updatable", TEXT)
                .rows(snapshot -> {
                    List<Object[]> rows = new ArrayList<>();
                    for (Relation relation : relations(snapshot)) {
                        for (Attribute a : relation.attributes()) {
                            rows.add(column(catalog, relation, a));
                        }
                    }
                    return rows;
                }));
        views.add(CatalogTable.view("table_constraints", 13_004, ns)
                .column("constraint_catalog", TEXT).column("constraint_schema", TEXT)
                .column("constraint_name", TEXT).column("table_catalog", TEXT).column("table_schema", TEXT)
                .column("table_name", TEXT).column("constraint_type", TEXT).column("is_deferrable", TEXT)
                .column("initially_deferred", TEXT).column("enforced", TEXT).column("nulls_distinct", TEXT)
                .rows(snapshot -> map(keyed(snapshot), r -> new Object[] {catalog, r.namespace().name(),
                    r.primaryKeyName(), catalog, r.namespace().name(), r.name(), "PRIMARY KEY", "NO", "NO", "YES",
                    null})));
        views.add(CatalogTable.view("key_column_usage", 13_005, ns)
                .column("constraint_catalog", TEXT).column("constraint_schema", TEXT)
                .column("constraint_name", TEXT).column("table_catalog", TEXT).column("table_schema", TEXT)
                .column("table_name", TEXT).column("column_name", TEXT).column("ordinal_position", INT4)
                .column("position_in_unique_constraint", INT4)
                .rows(snapshot -> keyColumns(snapshot, catalog, true)));
        views.add(CatalogTable.view("constraint_column_usage", 13_006, ns)
                .column("table_catalog", TEXT).column("table_schema", TEXT).column("table_name", TEXT)
                .column("column_name", TEXT).column("constraint_catalog", TEXT).column("constraint_schema", TEXT)
                .column("constraint_name", TEXT)
                .rows(snapshot -> keyColumns(snapshot, catalog, false)));
        views.add(CatalogTable.view("referential_constraints", 13_007, ns)
                .column("constraint_catalog", TEXT).column("constraint_schema", TEXT)
                .column("constraint_name", TEXT).column("unique_constraint_catalog", TEXT)
                .column("unique_constraint_schema", TEXT).column("unique_constraint_name", TEXT)
                .column("match_option", TEXT).column("update_rule", TEXT).column("delete_rule", TEXT).empty());
        views.add(CatalogTable.view("views", 13_008, ns)
                .column("table_catalog", TEXT).column("table_schema", TEXT).column("table_name", TEXT)
                .column("view_definition", TEXT).column("check_option", TEXT).column("is_updatable", TEXT)
                .column("is_insertable_into", TEXT).column("is_trigger_updatable", TEXT)
                .column("is_trigger_deletable", TEXT).column("is_trigger_insertable_into", TEXT).empty());
        views.add(CatalogTable.view("routines", 13_009, ns)
                .column("specific_catalog", TEXT).column("specific_schema", TEXT).column("specific_name", TEXT)
                .column("routine_catalog", TEXT).column("routine_schema", TEXT).column("routine_name", TEXT)
                .column("routine_type", TEXT).column("data_type", TEXT).column("type_udt_name", TEXT)
                .column("routine_body", TEXT).column("routine_definition", TEXT).column("external_language", TEXT)
                .column("is_deterministic", TEXT).column("security_type", TEXT).empty());
        return views;
    }

    private static Object[] column(String catalog, Relation relation, Attribute a) {
        PgType element = PgType.ofOid(a.typeOid()).orElse(null);
        boolean array = element == null;
        PgType type = array ? PgType.ofArrayOid(a.typeOid()).orElse(PgType.TEXT) : element;
        String dataType = array ? "ARRAY" : PgColumnType.formatType(type.oid(), -1);
        Integer precision = switch (type) {
            case INT2 -> 16;
            case INT4, OID -> 32;
            case INT8 -> 64;
            case FLOAT4 -> 24;
            case FLOAT8 -> 53;
            case NUMERIC -> a.typmod() >= 4 ? (a.typmod() - 4) >> 16 : null;
            default -> null;
        };
        Integer radix = precision == null ? null : type == PgType.NUMERIC ? 10 : 2;
        Integer scale = switch (type) {
            case INT2, INT4, INT8, OID -> 0;
            case NUMERIC -> a.typmod() >= 4 ? (a.typmod() - 4) & 0xFFFF : null;
            default -> null;
        };
        Integer datetimePrecision = switch (type) {
            case DATE -> 0;
            case TIME, TIMESTAMP, TIMESTAMPTZ -> a.typmod() >= 0 ? a.typmod() : 6;
            default -> null;
        };
        String udt = array ? "_" + type.typeName() : type.typeName();
        return new Object[] {catalog, relation.namespace().name(), relation.name(), a.name(), (int) a.number(), null,
            a.notNull() ? "NO" : "YES", dataType, null, type.category() == 'S' ? 1_073_741_824 : null, precision, radix,
            scale, datetimePrecision, null, null, null, null, null, null, null, null, null, null, null, catalog,
            PgCatalogSchema.NAME, udt, null, null, null, null, String.valueOf(a.number()), "NO", "NO", null, null, null,
            null, null, "NO", "NEVER", null, relation.isFlussTable() ? "YES" : "NO"};
    }

    private static List<Object[]> keyColumns(CatalogSnapshot snapshot, String catalog, boolean positions) {
        List<Object[]> rows = new ArrayList<>();
        for (Relation table : keyed(snapshot)) {
            int position = 1;
            for (short key : table.primaryKey()) {
                String column = table.attributes().get(key - 1).name();
                String schema = table.namespace().name();
                rows.add(positions
                        ? new Object[] {catalog, schema, table.primaryKeyName(), catalog, schema, table.name(), column,
                            position++, null}
                        : new Object[] {catalog, schema, table.name(), column, catalog, schema, table.primaryKeyName()});
            }
        }
        return rows;
    }

    /** The tables and views a user's statements see (Fluss's tables, and the catalogs' own). */
    private static List<Relation> relations(CatalogSnapshot snapshot) {
        return snapshot.relations().stream().filter(r -> r.kind() != 'i').toList();
    }

    private static List<Relation> keyed(CatalogSnapshot snapshot) {
        return snapshot.relations().stream().filter(r -> r.primaryKeyOid().isPresent()).toList();
    }

    private static <T> List<Object[]> map(Collection<T> items, java.util.function.Function<T, Object[]> row) {
        List<Object[]> rows = new ArrayList<>(items.size());
        for (T item : items) {
            rows.add(row.apply(item));
        }
        return rows;
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
        return null;
    }

    @Override
    public Set<String> getTypeNames() {
        return Set.of();
    }

    @Override
    public Collection<Function> getFunctions(String name) {
        return PgFunctions.informationSchema(name);
    }

    @Override
    public Set<String> getFunctionNames() {
        return PgFunctions.informationSchemaNames();
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
