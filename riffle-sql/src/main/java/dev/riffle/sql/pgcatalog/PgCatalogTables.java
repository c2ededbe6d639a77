package dev.riffle.sql.pgcatalog;

import static dev.riffle.sql.dialect.PgType.BOOL;
import static dev.riffle.sql.dialect.PgType.CHAR;
import static dev.riffle.sql.dialect.PgType.FLOAT4;
import static dev.riffle.sql.dialect.PgType.INT2;
import static dev.riffle.sql.dialect.PgType.INT2VECTOR;
import static dev.riffle.sql.dialect.PgType.INT4;
import static dev.riffle.sql.dialect.PgType.INT8;
import static dev.riffle.sql.dialect.PgType.NAME;
import static dev.riffle.sql.dialect.PgType.OID;
import static dev.riffle.sql.dialect.PgType.OIDVECTOR;
import static dev.riffle.sql.dialect.PgType.REGPROC;
import static dev.riffle.sql.dialect.PgType.TEXT;
import static dev.riffle.sql.dialect.PgType.TIMESTAMPTZ;

import dev.riffle.sql.dialect.Oids;
import dev.riffle.sql.dialect.PgType;
import dev.riffle.sql.pgcatalog.CatalogSnapshot.Attribute;
import dev.riffle.sql.pgcatalog.CatalogSnapshot.Relation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;

/**
 * The tables of {@code pg_catalog}, as PostgreSQL 14 has them (every column, so a tool that
 * selects {@code c.*} gets what it expects), filled from a {@link CatalogSnapshot}: schemas,
 * relations, columns, primary keys (as unique btree indexes and constraints), comments, types, and
 * the one database and role. What Fluss has none of (sequences, triggers, policies, inheritance,
 * publications, foreign keys, column defaults) is an empty table, as in a database without them.
 *
 * <pre>{@code
 * Map<String, CatalogTable> tables = PgCatalogTables.of(snapshots);
 * }</pre>
 */
public final class PgCatalogTables {
    private static final int OWNER = Oids.ROLE;

    private PgCatalogTables() {}

    /** The tables by name, their rows from {@code snapshots} (which learns of them, to list them as relations). */
    public static Map<String, CatalogTable> of(CatalogSnapshots snapshots, List<CatalogTable> others) {
        List<CatalogTable> tables = definitions();
        List<CatalogTable> all = new ArrayList<>(tables);
        all.addAll(others);
        snapshots.system(all);
        Map<String, CatalogTable> byName = new LinkedHashMap<>();
        for (CatalogTable table : tables) {
            byName.put(table.name(), table.snapshots(snapshots));
        }
        return Collections.unmodifiableMap(byName);
    }

    private static boolean hasPartitions(CatalogSnapshot snapshot, Relation table) {
        return table.kind() == 'p' && snapshot.relations().stream()
                .anyMatch(r -> r.partition().map(p -> p.parent() == table.oid()).orElse(false));
    }

    private static List<CatalogTable> definitions() {
        List<CatalogTable> tables = new ArrayList<>();
        tables.add(CatalogTable.named("pg_namespace", Oids.PG_NAMESPACE, Oids.PG_CATALOG)
                .column("oid", OID).column("nspname", NAME).column("nspowner", OID).array("nspacl", TEXT)
                .rows(snapshot -> map(snapshot.namespaces(), n -> new Object[] {n.oid(), n.name(), OWNER, null})));
        tables.add(CatalogTable.named("pg_class", Oids.PG_CLASS, Oids.PG_CATALOG)
                .column("oid", OID).column("relname", NAME).column("relnamespace", OID).column("reltype", OID)
                .column("reloftype", OID).column("relowner", OID).column("relam", OID).column("relfilenode", OID)
                .column("reltablespace", OID).column("relpages", INT4).column("reltuples", FLOAT4)
                .column("relallvisible", INT4).column("reltoastrelid", OID).column("relhasindex", BOOL)
                .column("relisshared", BOOL).column("relpersistence", CHAR).column("relkind", CHAR)
                .column("relnatts", INT2).column("relchecks", INT2).column("relhasrules", BOOL)
                .column("relhastriggers", BOOL).column("relhassubclass", BOOL).column("relrowsecurity", BOOL)
                .column("relforcerowsecurity", BOOL).column("relispopulated", BOOL).column("relreplident", CHAR)
                .column("relispartition", BOOL).column("relrewrite", OID).column("relfrozenxid", INT4)
                .column("relminmxid", INT4).array("relacl", TEXT).array("reloptions", TEXT)
                .column("relpartbound", TEXT)
                .rows(snapshot -> map(snapshot.relations(), r -> new Object[] {r.oid(), r.name(), r.namespace().oid(), 0,
                    0, OWNER, r.kind() == 'i' ? Oids.BTREE : r.kind() == 'v' || r.kind() == 'p' ? 0 : Oids.HEAP, r.oid(), 0, 0, -1f, 0, 0,
                    r.primaryKeyOid().isPresent(), false, "p", String.valueOf(r.kind()),
                    (short) r.attributes().size(), (short) 0, false, false, hasPartitions(snapshot, r), false, false,
                    true, "d", r.partition().isPresent(), 0, 0, 0, null, null,
                    r.partition().map(CatalogSnapshot.Partition::bound).orElse(null)})));
        tables.add(CatalogTable.named("pg_attribute", 1249, Oids.PG_CATALOG)
                .column("attrelid", OID).column("attname", NAME).column("atttypid", OID)
                .column("attstattarget", INT4).column("attlen", INT2).column("attnum", INT2).column("attndims", INT4)
                .column("attcacheoff", INT4).column("atttypmod", INT4).column("attbyval", BOOL)
                .column("attalign", CHAR).column("attstorage", CHAR).column("attcompression", CHAR)
                .column("attnotnull", BOOL).column("atthasdef", BOOL).column("atthasmissing", BOOL)
                .column("attidentity", CHAR).column("attgenerated", CHAR).column("attisdropped", BOOL)
                .column("attislocal", BOOL).column("attinhcount", INT4).column("attcollation", OID)
                .array("attacl", TEXT).array("attoptions", TEXT).array("attfdwoptions", TEXT)
                .column("attmissingval", TEXT)
                .rows(snapshot -> {
                    List<Object[]> rows = new ArrayList<>();
                    for (Relation relation : snapshot.relations()) {
                        for (Attribute a : relation.attributes()) {
                            boolean array = PgType.ofArrayOid(a.typeOid()).isPresent();
                            rows.add(new Object[] {relation.oid(), a.name(), a.typeOid(), -1, a.length(), a.number(),
                                array ? 1 : 0, -1, a.typmod(), a.byValue(), "i", a.length() > 0 ? "p" : "x", "",
                                a.notNull(), false, false, "", "", false, true, 0,
                                a.typeOid() == PgType.TEXT.oid() ? 100 : 0, null, null, null, null});
                        }
                    }
                    return rows;
                }));
        tables.add(CatalogTable.named("pg_type", 1247, Oids.PG_CATALOG)
                .column("oid", OID).column("typname", NAME).column("typnamespace", OID).column("typowner", OID)
                .column("typlen", INT2).column("typbyval", BOOL).column("typtype", CHAR).column("typcategory", CHAR)
                .column("typispreferred", BOOL).column("typisdefined", BOOL).column("typdelim", CHAR)
                .column("typrelid", OID).column("typsubscript", REGPROC).column("typelem", OID)
                .column("typarray", OID).column("typinput", REGPROC).column("typoutput", REGPROC)
                .column("typreceive", REGPROC).column("typsend", REGPROC).column("typmodin", REGPROC)
                .column("typmodout", REGPROC).column("typanalyze", REGPROC).column("typalign", CHAR)
                .column("typstorage", CHAR).column("typnotnull", BOOL).column("typbasetype", OID)
                .column("typtypmod", INT4).column("typndims", INT4).column("typcollation", OID)
                .column("typdefaultbin", TEXT).column("typdefault", TEXT).array("typacl", TEXT)
                .rows(snapshot -> {
                    List<Object[]> rows = new ArrayList<>();
                    for (PgType type : PgType.values()) {
                        if (type == PgType.UNKNOWN) {
                            continue;
                        }
                        boolean text = type.category() == 'S';
                        rows.add(new Object[] {type.oid(), type.typeName(), Oids.PG_CATALOG, OWNER, type.size(),
                            type.byValue(), "b", String.valueOf(type.category()), false, true, ",", 0, "-", 0,
                            type.arrayOid(), type.input(), type.output(), type.receive(), type.send(), "-", "-", "-",
                            type.size() == 8 ? "d" : type.size() == 2 ? "s" : type.size() == 1 ? "c" : "i",
                            type.size() > 0 ? "p" : "x", false, 0, -1, 0, text ? 100 : 0, null, null, null});
                        if (type.arrayOid() != 0) {
                            rows.add(new Object[] {type.arrayOid(), "_" + type.typeName(), Oids.PG_CATALOG, OWNER,
                                (short) -1, false, "b", "A", false, true, ",", 0, "array_subscript_handler", type.oid(), 0,
                                "array_in", "array_out", "array_recv", "array_send", "-", "-", "array_typanalyze", "i",
                                "x", false, 0, -1, 0, text ? 100 : 0, null, null, null});
                        }
                    }
                    return rows;
                }));
        tables.add(CatalogTable.named("pg_index", 2610, Oids.PG_CATALOG)
                .column("indexrelid", OID).column("indrelid", OID).column("indnatts", INT2)
                .column("indnkeyatts", INT2).column("indisunique", BOOL).column("indnullsnotdistinct", BOOL)
                .column("indisprimary", BOOL).column("indisexclusion", BOOL).column("indimmediate", BOOL)
                .column("indisclustered", BOOL).column("indisvalid", BOOL).column("indcheckxmin", BOOL)
                .column("indisready", BOOL).column("indislive", BOOL).column("indisreplident", BOOL)
                .column("indkey", INT2VECTOR).column("indcollation", OIDVECTOR).column("indclass", OIDVECTOR)
                .column("indoption", INT2VECTOR).column("indexprs", TEXT).column("indpred", TEXT)
                .rows(snapshot -> {
                    List<Object[]> rows = new ArrayList<>();
                    for (Relation table : snapshot.relations()) {
                        if (table.primaryKeyOid().isEmpty()) {
                            continue;
                        }
                        short keys = (short) table.primaryKey().size();
                        rows.add(new Object[] {table.primaryKeyOid().get(), table.oid(), keys, keys, true, false, true,
                            false, true, false, true, false, true, true, false, table.primaryKey(),
                            Collections.nCopies(keys, 0), Collections.nCopies(keys, 0),
                            Collections.nCopies(keys, (short) 0), null, null});
                    }
                    return rows;
                }));
        tables.add(CatalogTable.named("pg_constraint", Oids.PG_CONSTRAINT, Oids.PG_CATALOG)
                .column("oid", OID).column("conname", NAME).column("connamespace", OID).column("contype", CHAR)
                .column("condeferrable", BOOL).column("condeferred", BOOL).column("convalidated", BOOL)
                .column("conrelid", OID).column("contypid", OID).column("conindid", OID).column("conparentid", OID)
                .column("confrelid", OID).column("confupdtype", CHAR).column("confdeltype", CHAR)
                .column("confmatchtype", CHAR).column("conislocal", BOOL).column("coninhcount", INT4)
                .column("connoinherit", BOOL).array("conkey", INT2).array("confkey", INT2).array("conpfeqop", OID)
                .array("conppeqop", OID).array("conffeqop", OID).array("confdelsetcols", INT2)
                .array("conexclop", OID).column("conbin", TEXT)
                .rows(snapshot -> {
                    List<Object[]> rows = new ArrayList<>();
                    for (Relation table : snapshot.relations()) {
                        if (table.primaryKeyOid().isPresent()) {
                            rows.add(new Object[] {table.primaryKeyOid().get(), table.primaryKeyName(),
                                table.namespace().oid(), "p", false, false, true, table.oid(), 0,
                                table.primaryKeyOid().get(), 0, 0, " ", " ", " ", true, 0, true, table.primaryKey(), null,
                                null, null, null, null, null, null});
                        }
                    }
                    return rows;
                }));
        tables.add(CatalogTable.named("pg_attrdef", 2604, Oids.PG_CATALOG)
                .column("oid", OID).column("adrelid", OID).column("adnum", INT2).column("adbin", TEXT).empty());
        tables.add(CatalogTable.named("pg_description", 2609, Oids.PG_CATALOG)
                .column("objoid", OID).column("classoid", OID).column("objsubid", INT4).column("description", TEXT)
                .rows(snapshot -> {
                    List<Object[]> rows = new ArrayList<>();
                    for (CatalogSnapshot.Namespace namespace : snapshot.namespaces()) {
                        snapshot.comment(namespace).ifPresent(comment -> rows.add(new Object[] {namespace.oid(),
                            Oids.PG_NAMESPACE, 0, comment}));
                    }
                    for (Relation relation : snapshot.relations()) {
                        relation.comment().ifPresent(comment -> rows.add(new Object[] {relation.oid(), Oids.PG_CLASS, 0,
                            comment}));
                        for (Attribute a : relation.attributes()) {
                            a.comment().ifPresent(comment -> rows.add(new Object[] {relation.oid(), Oids.PG_CLASS,
                                (int) a.number(), comment}));
                        }
                    }
                    return rows;
                }));
        tables.add(CatalogTable.named("pg_shdescription", 2396, Oids.PG_CATALOG)
                .column("objoid", OID).column("classoid", OID).column("description", TEXT).empty());
        tables.add(CatalogTable.named("pg_database", Oids.PG_DATABASE, Oids.PG_CATALOG)
                .column("oid", OID).column("datname", NAME).column("datdba", OID).column("encoding", INT4)
                .column("datlocprovider", CHAR).column("datistemplate", BOOL).column("datallowconn", BOOL)
                .column("datconnlimit", INT4).column("datfrozenxid", INT4).column("datminmxid", INT4)
                .column("dattablespace", OID).column("datcollate", TEXT).column("datctype", TEXT)
                .column("daticulocale", TEXT).column("datcollversion", TEXT).array("datacl", TEXT)
                .rows(snapshot -> List.<Object[]>of(new Object[] {Oids.DATABASE, PgSessions.DATABASE, OWNER, 6, "c",
                    false, true, -1, 0, 0, Oids.TABLESPACE, "C", "C", null, null, null})));
        tables.add(CatalogTable.view("pg_roles", 12_001, Oids.PG_CATALOG)
                .column("rolname", NAME).column("rolsuper", BOOL).column("rolinherit", BOOL)
                .column("rolcreaterole", BOOL).column("rolcreatedb", BOOL).column("rolcanlogin", BOOL)
                .column("rolreplication", BOOL).column("rolconnlimit", INT4).column("rolpassword", TEXT)
                .column("rolvaliduntil", TIMESTAMPTZ).column("rolbypassrls", BOOL).array("rolconfig", TEXT)
                .column("oid", OID)
                .rows((CatalogSnapshot snapshot, DataContext root) -> List.<Object[]>of(new Object[] {
                    PgSessions.user(root), false, true, false, false, true, false, -1, "********", null, false, null,
                    OWNER})));
        tables.add(CatalogTable.view("pg_user", 12_002, Oids.PG_CATALOG)
                .column("usename", NAME).column("usesysid", OID).column("usecreatedb", BOOL).column("usesuper", BOOL)
                .column("userepl", BOOL).column("usebypassrls", BOOL).column("passwd", TEXT)
                .column("valuntil", TIMESTAMPTZ).array("useconfig", TEXT)
                .rows((CatalogSnapshot snapshot, DataContext root) -> List.<Object[]>of(new Object[] {
                    PgSessions.user(root), OWNER, false, false, false, false, "********", null, null})));
        tables.add(CatalogTable.named("pg_auth_members", 1261, Oids.PG_CATALOG)
                .column("roleid", OID).column("member", OID).column("grantor", OID).column("admin_option", BOOL)
                .empty());
        tables.add(CatalogTable.view("pg_settings", 12_003, Oids.PG_CATALOG)
                .column("name", TEXT).column("setting", TEXT).column("unit", TEXT).column("category", TEXT)
                .column("short_desc", TEXT).column("extra_desc", TEXT).column("context", TEXT)
                .column("vartype", TEXT).column("source", TEXT).column("min_val", TEXT).column("max_val", TEXT)
                .array("enumvals", TEXT).column("boot_val", TEXT).column("reset_val", TEXT)
                .column("sourcefile", TEXT).column("sourceline", INT4).column("pending_restart", BOOL)
                .rows((CatalogSnapshot snapshot, DataContext root) -> map(PgSessions.settings(root).entrySet(),
                    setting -> new Object[] {setting.getKey(), setting.getValue(), null, "Riffle", null, null, "user",
                        "string", "session", null, null, null, setting.getValue(), setting.getValue(), null, null,
                        false})));
        tables.add(CatalogTable.named("pg_am", 2601, Oids.PG_CATALOG)
                .column("oid", OID).column("amname", NAME).column("amhandler", REGPROC).column("amtype", CHAR)
                .rows(snapshot -> List.<Object[]>of(new Object[] {Oids.HEAP, "heap", "heap_tableam_handler", "t"},
                    new Object[] {Oids.BTREE, "btree", "bthandler", "i"})));
        tables.add(CatalogTable.named("pg_proc", 1255, Oids.PG_CATALOG)
                .column("oid", OID).column("proname", NAME).column("pronamespace", OID).column("proowner", OID)
                .column("prolang", OID).column("procost", FLOAT4).column("prorows", FLOAT4)
                .column("provariadic", OID).column("prosupport", REGPROC).column("prokind", CHAR)
                .column("prosecdef", BOOL).column("proleakproof", BOOL).column("proisstrict", BOOL)
                .column("proretset", BOOL).column("provolatile", CHAR).column("proparallel", CHAR)
                .column("pronargs", INT2).column("pronargdefaults", INT2).column("prorettype", OID)
                .column("proargtypes", OIDVECTOR).array("proallargtypes", OID).array("proargmodes", CHAR)
                .array("proargnames", TEXT).column("proargdefaults", TEXT).array("protrftypes", OID)
                .column("prosrc", TEXT).column("probin", TEXT).column("prosqlbody", TEXT).array("proconfig", TEXT)
                .array("proacl", TEXT).empty());
        tables.add(CatalogTable.named("pg_inherits", 2611, Oids.PG_CATALOG)
                .column("inhrelid", OID).column("inhparent", OID).column("inhseqno", INT4)
                .column("inhdetachpending", BOOL)
                .rows(snapshot -> snapshot.relations().stream().filter(r -> r.partition().isPresent())
                        .map(r -> new Object[] {r.oid(), r.partition().get().parent(), 1, false}).toList()));
        tables.add(CatalogTable.named("pg_collation", 3456, Oids.PG_CATALOG)
                .column("oid", OID).column("collname", NAME).column("collnamespace", OID).column("collowner", OID)
                .column("collprovider", CHAR).column("collisdeterministic", BOOL).column("collencoding", INT4)
                .column("collcollate", TEXT).column("collctype", TEXT).column("colliculocale", TEXT)
                .column("collversion", TEXT)
                .rows(snapshot -> List.<Object[]>of(new Object[] {100, "default", Oids.PG_CATALOG, OWNER, "d", true, -1,
                    null, null, null, null}, new Object[] {950, "C", Oids.PG_CATALOG, OWNER, "c", true, -1, "C", "C",
                    null, null})));
        tables.add(CatalogTable.named("pg_enum", 3501, Oids.PG_CATALOG)
                .column("oid", OID).column("enumtypid", OID).column("enumsortorder", FLOAT4).column("enumlabel", NAME)
                .empty());
        tables.add(CatalogTable.named("pg_extension", 3079, Oids.PG_CATALOG)
                .column("oid", OID).column("extname", NAME).column("extowner", OID).column("extnamespace", OID)
                .column("extrelocatable", BOOL).column("extversion", TEXT).array("extconfig", OID)
                .array("extcondition", TEXT).empty());
        tables.add(CatalogTable.named("pg_tablespace", 1213, Oids.PG_CATALOG)
                .column("oid", OID).column("spcname", NAME).column("spcowner", OID).array("spcacl", TEXT)
                .array("spcoptions", TEXT)
                .rows(snapshot -> List.<Object[]>of(new Object[] {Oids.TABLESPACE, "pg_default", OWNER, null, null},
                    new Object[] {1664, "pg_global", OWNER, null, null})));
        tables.add(CatalogTable.view("pg_tables", 12_004, Oids.PG_CATALOG)
                .column("schemaname", NAME).column("tablename", NAME).column("tableowner", NAME)
                .column("tablespace", NAME).column("hasindexes", BOOL).column("hasrules", BOOL)
                .column("hastriggers", BOOL).column("rowsecurity", BOOL)
                .rows((CatalogSnapshot snapshot, DataContext root) -> map(tables(snapshot), r -> new Object[] {
                    r.namespace().name(), r.name(), PgSessions.user(root), null, r.primaryKeyOid().isPresent(), false,
                    false, false})));
        tables.add(CatalogTable.view("pg_views", 12_005, Oids.PG_CATALOG)
                .column("schemaname", NAME).column("viewname", NAME).column("viewowner", NAME)
                .column("definition", TEXT).empty());
        tables.add(CatalogTable.view("pg_matviews", 12_006, Oids.PG_CATALOG)
                .column("schemaname", NAME).column("matviewname", NAME).column("matviewowner", NAME)
                .column("tablespace", NAME).column("hasindexes", BOOL).column("ispopulated", BOOL)
                .column("definition", TEXT).empty());
        tables.add(CatalogTable.view("pg_indexes", 12_009, Oids.PG_CATALOG)
                .column("schemaname", NAME).column("tablename", NAME).column("indexname", NAME)
                .column("tablespace", NAME).column("indexdef", TEXT)
                .rows(snapshot -> {
                    List<Object[]> rows = new ArrayList<>();
                    for (Relation table : tables(snapshot)) {
                        table.primaryKeyOid().ifPresent(index -> rows.add(new Object[] {table.namespace().name(),
                            table.name(), table.primaryKeyName(), null, PgDefinitions.index(snapshot, index)}));
                    }
                    return rows;
                }));
        tables.add(CatalogTable.view("pg_stat_user_tables", 12_007, Oids.PG_CATALOG)
                .column("relid", OID).column("schemaname", NAME).column("relname", NAME).column("seq_scan", INT8)
                .column("seq_tup_read", INT8).column("idx_scan", INT8).column("idx_tup_fetch", INT8)
                .column("n_tup_ins", INT8).column("n_tup_upd", INT8).column("n_tup_del", INT8)
                .column("n_tup_hot_upd", INT8).column("n_live_tup", INT8).column("n_dead_tup", INT8)
                .column("n_mod_since_analyze", INT8).column("n_ins_since_vacuum", INT8)
                .column("last_vacuum", TIMESTAMPTZ).column("last_autovacuum", TIMESTAMPTZ)
                .column("last_analyze", TIMESTAMPTZ).column("last_autoanalyze", TIMESTAMPTZ)
                .column("vacuum_count", INT8).column("autovacuum_count", INT8).column("analyze_count", INT8)
                .column("autoanalyze_count", INT8)
                .rows(snapshot -> map(tables(snapshot), r -> new Object[] {r.oid(), r.namespace().name(), r.name(), 0L,
                    0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, null, null, null, null, 0L, 0L, 0L, 0L})));
        tables.add(CatalogTable.named("pg_partitioned_table", 3350, Oids.PG_CATALOG)
                .column("partrelid", OID).column("partstrat", CHAR).column("partnatts", INT2)
                .column("partdefid", OID).column("partattrs", INT2VECTOR).column("partclass", OIDVECTOR)
                .column("partcollation", OIDVECTOR).column("partexprs", TEXT)
                .rows(snapshot -> {
                    List<Object[]> rows = new ArrayList<>();
                    for (Relation table : tables(snapshot)) {
                        if (table.kind() == 'p') {
                            List<Short> keys = PgDefinitions.partitionKeys(table);
                            rows.add(new Object[] {table.oid(), "l", (short) keys.size(), 0, keys,
                                Collections.nCopies(keys.size(), 0), Collections.nCopies(keys.size(), 0), null});
                        }
                    }
                    return rows;
                }));
        tables.add(CatalogTable.named("pg_sequence", 2224, Oids.PG_CATALOG)
                .column("seqrelid", OID).column("seqtypid", OID).column("seqstart", INT8)
                .column("seqincrement", INT8).column("seqmax", INT8).column("seqmin", INT8).column("seqcache", INT8)
                .column("seqcycle", BOOL).empty());
        tables.add(CatalogTable.named("pg_policy", 3256, Oids.PG_CATALOG)
                .column("oid", OID).column("polname", NAME).column("polrelid", OID).column("polcmd", CHAR)
                .column("polpermissive", BOOL).array("polroles", OID).column("polqual", TEXT)
                .column("polwithcheck", TEXT).empty());
        tables.add(CatalogTable.named("pg_statistic_ext", 3381, Oids.PG_CATALOG)
                .column("oid", OID).column("stxrelid", OID).column("stxname", NAME).column("stxnamespace", OID)
                .column("stxowner", OID).column("stxstattarget", INT4).column("stxkeys", INT2VECTOR)
                .array("stxkind", CHAR).column("stxexprs", TEXT).empty());
        tables.add(CatalogTable.named("pg_publication", 6104, Oids.PG_CATALOG)
                .column("oid", OID).column("pubname", NAME).column("pubowner", OID).column("puballtables", BOOL)
                .column("pubinsert", BOOL).column("pubupdate", BOOL).column("pubdelete", BOOL)
                .column("pubtruncate", BOOL).column("pubviaroot", BOOL).empty());
        tables.add(CatalogTable.named("pg_publication_namespace", 6237, Oids.PG_CATALOG)
                .column("oid", OID).column("pnpubid", OID).column("pnnspid", OID).empty());
        tables.add(CatalogTable.named("pg_publication_rel", 6106, Oids.PG_CATALOG)
                .column("oid", OID).column("prpubid", OID).column("prrelid", OID).column("prqual", TEXT)
                .column("prattrs", INT2VECTOR).empty());
        tables.add(CatalogTable.named("pg_depend", 2608, Oids.PG_CATALOG)
                .column("classid", OID).column("objid", OID).column("objsubid", INT4).column("refclassid", OID)
                .column("refobjid", OID).column("refobjsubid", INT4).column("deptype", CHAR).empty());
        tables.add(CatalogTable.named("pg_conversion", 2607, Oids.PG_CATALOG)
                .column("oid", OID).column("conname", NAME).column("connamespace", OID).column("conowner", OID)
                .column("conforencoding", INT4).column("contoencoding", INT4).column("conproc", REGPROC)
                .column("condefault", BOOL).empty());
        tables.add(CatalogTable.named("pg_trigger", 2620, Oids.PG_CATALOG)
                .column("oid", OID).column("tgrelid", OID).column("tgparentid", OID).column("tgname", NAME)
                .column("tgfoid", OID).column("tgtype", INT2).column("tgenabled", CHAR).column("tgisinternal", BOOL)
                .column("tgconstrrelid", OID).column("tgconstrindid", OID).column("tgconstraint", OID)
                .column("tgdeferrable", BOOL).column("tginitdeferred", BOOL).column("tgnargs", INT2)
                .column("tgattr", INT2VECTOR).column("tgargs", TEXT).column("tgqual", TEXT)
                .column("tgoldtable", NAME).column("tgnewtable", NAME).empty());
        tables.add(CatalogTable.named("pg_rewrite", 2618, Oids.PG_CATALOG)
                .column("oid", OID).column("rulename", NAME).column("ev_class", OID).column("ev_type", CHAR)
                .column("ev_enabled", CHAR).column("is_instead", BOOL).column("ev_qual", TEXT)
                .column("ev_action", TEXT).empty());
        tables.add(CatalogTable.named("pg_foreign_table", 3118, Oids.PG_CATALOG)
                .column("ftrelid", OID).column("ftserver", OID).array("ftoptions", TEXT).empty());
        tables.add(CatalogTable.named("pg_language", 2612, Oids.PG_CATALOG)
                .column("oid", OID).column("lanname", NAME).column("lanowner", OID).column("lanispl", BOOL)
                .column("lanpltrusted", BOOL).column("lanplcallfoid", OID).column("laninline", OID)
                .column("lanvalidator", OID).array("lanacl", TEXT)
                .rows(snapshot -> List.<Object[]>of(new Object[] {12, "internal", OWNER, false, false, 0, 0, 0, null},
                    new Object[] {14, "sql", OWNER, false, true, 0, 0, 0, null})));
        return tables;
    }

    /** Fluss's tables (not the system catalogs, not indexes). */
    static List<Relation> tables(CatalogSnapshot snapshot) {
        return snapshot.relations().stream().filter(Relation::isFlussTable).toList();
    }

    private static <T> List<Object[]> map(Collection<T> items, java.util.function.Function<T, Object[]> row) {
        List<Object[]> rows = new ArrayList<>(items.size());
        for (T item : items) {
            rows.add(row.apply(item));
        }
        return rows;
    }
}
