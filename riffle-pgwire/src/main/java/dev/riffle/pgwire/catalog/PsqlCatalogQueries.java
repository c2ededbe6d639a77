package dev.riffle.pgwire.catalog;

import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognizes the catalog queries psql 15 sends (to a server that says it is PostgreSQL 14) for
 * {@code \l}, {@code \dn [pattern]}, {@code \dt [pattern]}, {@code \d} and {@code \d name}, and
 * their verbose forms {@code \l+}, {@code \dn+}, {@code \dt+}, {@code \d+}, by their distinctive
 * parts rather than their whole text: the SQL is compared with its white space collapsed and in
 * lower case, so psql's layout and the order of its optional filters do not matter, while the name
 * patterns are taken from the original text (as {@link NamePattern}s, never run as regular
 * expressions). Every other catalog query stays 0A000.
 *
 * <pre>{@code
 * PsqlCatalogQueries.recognize("SELECT n.nspname AS \"Name\", pg_catalog.pg_get_userbyid(n.nspowner) AS \"Owner\""
 *         + " FROM pg_catalog.pg_namespace n WHERE n.nspname !~ '^pg_' ORDER BY 1")   // SCHEMAS
 * }</pre>
 */
public final class PsqlCatalogQueries {
    private static final Pattern MENTIONS_CATALOG = Pattern.compile("pg_catalog\\.", Pattern.CASE_INSENSITIVE);
    private static final Pattern SPACE = Pattern.compile("\\s+");
    private static final Pattern NSPNAME = Pattern.compile(
            "n\\.nspname OPERATOR\\(pg_catalog\\.~\\) '((?:[^']|'')*)'", Pattern.CASE_INSENSITIVE);
    private static final Pattern RELNAME = Pattern.compile(
            "c\\.relname OPERATOR\\(pg_catalog\\.~\\) '((?:[^']|'')*)'", Pattern.CASE_INSENSITIVE);
    private static final Pattern RELKINDS = Pattern.compile("c\\.relkind in \\(([^)]*)\\)");
    private static final Pattern QUOTED_OID = Pattern.compile("'(\\d{1,10})'");

    private PsqlCatalogQueries() {}

    /** The catalog question {@code sql} asks, if it is one of psql's that Riffle answers. */
    public static Optional<CatalogQuery> recognize(String sql) {
        if (!MENTIONS_CATALOG.matcher(sql).find()) {
            return Optional.empty(); // most statements: not normalized at all
        }
        String original = SPACE.matcher(sql.strip()).replaceAll(" ");
        String q = original.toLowerCase(Locale.ROOT);
        return Optional.ofNullable(match(q, original));
    }

    private static CatalogQuery match(String q, String original) {
        if (q.startsWith("select d.datname as \"name\"") && q.contains("from pg_catalog.pg_database d")
                && !q.contains("pg_database_size")) {
            return CatalogQuery.of(CatalogQuery.Kind.DATABASES);
        }
        if (q.startsWith("select d.datname as \"name\"") && q.contains("from pg_catalog.pg_database d")
                && q.contains("then pg_catalog.pg_size_pretty(pg_catalog.pg_database_size(d.datname)) else 'no access'"
                        + " end as \"size\", t.spcname as \"tablespace\","
                        + " pg_catalog.shobj_description(d.oid, 'pg_database') as \"description\"")) {
            return CatalogQuery.of(CatalogQuery.Kind.DATABASES_VERBOSE);
        }
        if (q.startsWith("select n.nspname as \"name\", pg_catalog.pg_get_userbyid(n.nspowner) as \"owner\" from")
                && q.contains("from pg_catalog.pg_namespace n") && !q.contains("nspacl")) {
            return new CatalogQuery(CatalogQuery.Kind.SCHEMAS, pattern(NSPNAME, original), Optional.empty(),
                    Optional.empty(), Set.of());
        }
        if (q.startsWith("select n.nspname as \"name\", pg_catalog.pg_get_userbyid(n.nspowner) as \"owner\","
                + " pg_catalog.array_to_string(n.nspacl, e'\\n') as \"access privileges\","
                + " pg_catalog.obj_description(n.oid, 'pg_namespace') as \"description\" from pg_catalog.pg_namespace n")) {
            return new CatalogQuery(CatalogQuery.Kind.SCHEMAS_VERBOSE, pattern(NSPNAME, original), Optional.empty(),
                    Optional.empty(), Set.of());
        }
        if (q.startsWith("select n.nspname as \"schema\", c.relname as \"name\", case c.relkind when 'r' then 'table'")
                && q.contains("as \"type\", pg_catalog.pg_get_userbyid(c.relowner) as \"owner\" from pg_catalog.pg_class c")) {
            return relations(CatalogQuery.Kind.RELATIONS, q, original);
        }
        if (q.startsWith("select n.nspname as \"schema\", c.relname as \"name\", case c.relkind when 'r' then 'table'")
                && q.contains("as \"type\", pg_catalog.pg_get_userbyid(c.relowner) as \"owner\", case c.relpersistence")
                && q.contains("as \"persistence\", am.amname as \"access method\","
                        + " pg_catalog.pg_size_pretty(pg_catalog.pg_table_size(c.oid)) as \"size\","
                        + " pg_catalog.obj_description(c.oid, 'pg_class') as \"description\" from pg_catalog.pg_class c")) {
            return relations(CatalogQuery.Kind.RELATIONS_VERBOSE, q, original);
        }
        if (q.startsWith("select c.oid, n.nspname, c.relname from pg_catalog.pg_class c left join pg_catalog.pg_namespace n")) {
            return new CatalogQuery(CatalogQuery.Kind.TABLE_LOOKUP, pattern(NSPNAME, original),
                    pattern(RELNAME, original), Optional.empty(), Set.of());
        }
        if (q.startsWith("select c.relchecks, c.relkind, c.relhasindex, c.relhasrules, c.relhastriggers")
                && q.contains("where c.oid = '")) {
            return about(CatalogQuery.Kind.TABLE_INFO, q, "where c.oid = ");
        }
        if (q.startsWith("select a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod)")
                && q.contains("from pg_catalog.pg_attribute a where a.attrelid = '") && !q.contains("attstorage")) {
            return about(CatalogQuery.Kind.COLUMNS, q, "a.attrelid = ");
        }
        if (q.startsWith("select a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod)")
                && q.contains(" a.attidentity, a.attgenerated, a.attstorage, a.attcompression as attcompression,"
                        + " case when a.attstattarget=-1 then null else a.attstattarget end as attstattarget,"
                        + " pg_catalog.col_description(a.attrelid, a.attnum) from pg_catalog.pg_attribute a where"
                        + " a.attrelid = '")) {
            return about(CatalogQuery.Kind.COLUMNS_VERBOSE, q, "a.attrelid = ");
        }
        if (q.startsWith("select pg_catalog.pg_get_partkeydef('")) {
            return about(CatalogQuery.Kind.PARTITION_KEY, q, "pg_get_partkeydef(");
        }
        if (q.startsWith("select c2.relname, i.indisprimary, i.indisunique")
                && q.contains("from pg_catalog.pg_class c, pg_catalog.pg_class c2, pg_catalog.pg_index i")) {
            return about(CatalogQuery.Kind.INDEXES, q, "where c.oid = ");
        }
        if (q.startsWith("select c.oid::pg_catalog.regclass, c.relkind, inhdetachpending")
                && q.contains("where c.oid = i.inhrelid and i.inhparent = '")) {
            return about(CatalogQuery.Kind.PARTITIONS, q, "i.inhparent = ");
        }
        boolean footer = q.startsWith("select pol.polname, pol.polpermissive") && q.contains("from pg_catalog.pg_policy pol")
                || q.startsWith("select oid, stxrelid::pg_catalog.regclass") && q.contains("from pg_catalog.pg_statistic_ext")
                || q.startsWith("select pubname") && q.contains("from pg_catalog.pg_publication p")
                || q.startsWith("select conrelid = '") && q.contains("as sametable")
                || q.startsWith("select conname, conrelid::pg_catalog.regclass as ontable")
                || q.startsWith("select c.oid::pg_catalog.regclass from pg_catalog.pg_class c, pg_catalog.pg_inherits i"
                        + " where c.oid = i.inhparent and i.inhrelid = '");
        return footer ? CatalogQuery.of(CatalogQuery.Kind.NOTHING) : null;
    }

    private static CatalogQuery relations(CatalogQuery.Kind kind, String q, String original) {
        Set<String> kinds = new HashSet<>();
        Matcher m = RELKINDS.matcher(q);
        if (m.find()) {
            for (String relkind : m.group(1).split(",")) {
                kinds.add(relkind.strip().replace("'", ""));
            }
        }
        return new CatalogQuery(kind, pattern(NSPNAME, original), pattern(RELNAME, original), Optional.empty(), kinds);
    }

    private static CatalogQuery about(CatalogQuery.Kind kind, String q, String after) {
        int at = q.indexOf(after);
        Matcher m = QUOTED_OID.matcher(q);
        if (at < 0 || !m.find(at + after.length()) || m.start() != at + after.length()) {
            return null;
        }
        return new CatalogQuery(kind, Optional.empty(), Optional.empty(), Optional.of(Long.parseLong(m.group(1))),
                Set.of());
    }

    /** The name pattern of psql's filter on {@code filter}'s column, from the regular expression psql wrote. */
    private static Optional<NamePattern> pattern(Pattern filter, String original) {
        Matcher m = filter.matcher(original);
        return m.find() ? Optional.of(NamePattern.fromPsqlRegex(m.group(1).replace("''", "'"))) : Optional.empty();
    }
}
