package dev.riffle.pgwire.catalog;

import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Recognizes the catalog queries psql 15 sends (to a server that says it is PostgreSQL 14) for
 * {@code \l}, {@code \dn}, {@code \dt [pattern]}, {@code \d} and {@code \d name}, by their
 * distinctive parts rather than their whole text: the SQL is compared with its white space
 * collapsed and in lower case, so psql's layout and the order of its optional filters do not
 * matter, while the name patterns are taken from the original text. The verbose forms
 * ({@code \dn+}, {@code \dt+}, {@code \d+}) are not recognized; like every other catalog query they
 * stay 0A000.
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
        try {
            return Optional.ofNullable(match(q, original));
        } catch (PatternSyntaxException e) {
            return Optional.empty(); // a name pattern Java does not read as psql meant it: not answered
        }
    }

    private static CatalogQuery match(String q, String original) {
        if (q.startsWith("select d.datname as \"name\"") && q.contains("from pg_catalog.pg_database d")
                && !q.contains("pg_database_size")) {
            return CatalogQuery.of(CatalogQuery.Kind.DATABASES);
        }
        if (q.startsWith("select n.nspname as \"name\", pg_catalog.pg_get_userbyid(n.nspowner) as \"owner\" from")
                && q.contains("from pg_catalog.pg_namespace n") && !q.contains("nspacl")) {
            return new CatalogQuery(CatalogQuery.Kind.SCHEMAS, pattern(NSPNAME, original), Optional.empty(),
                    Optional.empty(), Set.of());
        }
        if (q.startsWith("select n.nspname as \"schema\", c.relname as \"name\", case c.relkind when 'r' then 'table'")
                && q.contains("as \"type\", pg_catalog.pg_get_userbyid(c.relowner) as \"owner\" from pg_catalog.pg_class c")) {
            Set<String> kinds = new HashSet<>();
            Matcher m = RELKINDS.matcher(q);
            if (m.find()) {
                for (String kind : m.group(1).split(",")) {
                    kinds.add(kind.strip().replace("'", ""));
                }
            }
            return new CatalogQuery(CatalogQuery.Kind.RELATIONS, pattern(NSPNAME, original), pattern(RELNAME, original),
                    Optional.empty(), kinds);
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

    private static CatalogQuery about(CatalogQuery.Kind kind, String q, String after) {
        int at = q.indexOf(after);
        Matcher m = QUOTED_OID.matcher(q);
        if (at < 0 || !m.find(at + after.length()) || m.start() != at + after.length()) {
            return null;
        }
        return new CatalogQuery(kind, Optional.empty(), Optional.empty(), Optional.of(Long.parseLong(m.group(1))),
                Set.of());
    }

    /** psql's POSIX regular expression for a name pattern, read as a Java one (the same for what psql writes). */
    private static Optional<Pattern> pattern(Pattern filter, String original) {
        Matcher m = filter.matcher(original);
        return m.find() ? Optional.of(Pattern.compile(m.group(1).replace("''", "'"))) : Optional.empty();
    }
}
