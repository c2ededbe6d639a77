package dev.riffle.pgwire.catalog;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognizes the catalog queries pgjdbc 42.7 sends for {@code DatabaseMetaData.getTables},
 * {@code getColumns} and {@code getPrimaryKeys} (to a server that says it is PostgreSQL 14), by
 * their distinctive parts, with white space collapsed and in lower case. Their name patterns are
 * bound parameters ({@code n.nspname LIKE $1}); which parameter is which is read from the query,
 * and the values are applied with {@link CatalogQuery#bind} when the statement is bound.
 *
 * <pre>{@code
 * CatalogQuery tables = PgjdbcMetadataQueries.recognize(sql).orElseThrow();   // JDBC_TABLES
 * tables.bind(List.of(Optional.of("shop"), Optional.of("%")));
 * }</pre>
 */
public final class PgjdbcMetadataQueries {
    private static final Pattern MENTIONS_CATALOG = Pattern.compile("pg_catalog\\.", Pattern.CASE_INSENSITIVE);
    private static final Pattern SPACE = Pattern.compile("\\s+");
    private static final Pattern SCHEMA_PARAMETER = Pattern.compile("n\\.nspname (like|=) \\$(\\d+)");
    private static final Pattern NAME_PARAMETER = Pattern.compile("(?:c|ct)\\.relname (like|=) \\$(\\d+)");
    private static final Pattern COLUMN_PARAMETER = Pattern.compile("attname (like|=) \\$(\\d+)");

    private PgjdbcMetadataQueries() {}

    /** The metadata question {@code sql} asks, if it is one of pgjdbc's that Riffle answers. */
    public static Optional<CatalogQuery> recognize(String sql) {
        if (!MENTIONS_CATALOG.matcher(sql).find()) {
            return Optional.empty();
        }
        String q = SPACE.matcher(sql.strip()).replaceAll(" ").toLowerCase(Locale.ROOT);
        if (q.startsWith("select current_database() as \"table_cat\", n.nspname as \"table_schem\", c.relname as"
                + " \"table_name\", case n.nspname ~ '^pg_'") && q.contains("as \"table_type\"")
                && q.contains("from pg_catalog.pg_namespace n, pg_catalog.pg_class c")
                && !q.contains("has_table_privilege")) {
            Set<String> kinds = new HashSet<>();
            boolean anyType = !q.contains(" and (false");
            if (anyType || q.contains("c.relkind = 'r' and n.nspname !~ '^pg_'")) {
                kinds.add("r");
            }
            if (anyType || q.contains("c.relkind = 'p' and n.nspname !~ '^pg_'")) {
                kinds.add("p");
            }
            return Optional.of(query(CatalogQuery.Kind.JDBC_TABLES, q, kinds));
        }
        if (q.startsWith("select ") && q.contains("select current_database() as current_database, n.nspname,c.relname,a.attname,"
                + "a.atttypid,a.attnotnull or (t.typtype = 'd' and t.typnotnull) as attnotnull,a.atttypmod,a.attlen,"
                + "t.typtypmod,") && q.contains("pg_catalog.pg_get_expr(def.adbin, def.adrelid) as adsrc,dsc.description,"
                + "t.typbasetype,t.typtype from pg_catalog.pg_namespace n")) {
            return Optional.of(query(CatalogQuery.Kind.JDBC_COLUMNS, q, Set.of()));
        }
        if (q.startsWith("select result.table_cat as \"table_cat\", result.table_schem as \"table_schem\","
                + " result.table_name as \"table_name\", result.column_name as \"column_name\", result.key_seq as"
                + " \"key_seq\", result.pk_name as \"pk_name\"from (") && q.contains("from pg_catalog.pg_constraint con")
                && q.contains("where con.contype = 'p'")) {
            return Optional.of(query(CatalogQuery.Kind.JDBC_PRIMARY_KEYS, q, Set.of()));
        }
        return Optional.empty();
    }

    private static CatalogQuery query(CatalogQuery.Kind kind, String q, Set<String> kinds) {
        List<CatalogQuery.Parameter> parameters = new ArrayList<>();
        parameter(SCHEMA_PARAMETER, "schema", q, parameters);
        parameter(NAME_PARAMETER, "name", q, parameters);
        parameter(COLUMN_PARAMETER, "column", q, parameters);
        return new CatalogQuery(kind, Optional.empty(), Optional.empty(), Optional.empty(), kinds, Optional.empty(),
                parameters);
    }

    private static void parameter(Pattern pattern, String role, String q, List<CatalogQuery.Parameter> parameters) {
        Matcher m = pattern.matcher(q);
        if (m.find()) {
            parameters.add(new CatalogQuery.Parameter(role, Integer.parseInt(m.group(2)), m.group(1).equals("like")));
        }
    }
}
