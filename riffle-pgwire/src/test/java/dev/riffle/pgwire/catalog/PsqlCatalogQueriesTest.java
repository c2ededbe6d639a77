package dev.riffle.pgwire.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.pgwire.session.PgException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** psql 15's catalog queries (as it sends them to a server that says it is PostgreSQL 14) are recognized. */
class PsqlCatalogQueriesTest {

    @Test
    void listTablesOfASchemaTakesThePatternFromTheQuery() {
        String sql = """
                SELECT n.nspname as "Schema",
                  c.relname as "Name",
                  CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' WHEN 'i' THEN 'index' WHEN 'S' THEN 'sequence' WHEN 't' THEN 'TOAST table' WHEN 'f' THEN 'foreign table' WHEN 'p' THEN 'partitioned table' WHEN 'I' THEN 'partitioned index' END as "Type",
                  pg_catalog.pg_get_userbyid(c.relowner) as "Owner"
                FROM pg_catalog.pg_class c
                     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                     LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam
                WHERE c.relkind IN ('r','p','t','s','')
                  AND n.nspname OPERATOR(pg_catalog.~) '^(shop)$' COLLATE pg_catalog.default
                ORDER BY 1,2;""";
        CatalogQuery query = PsqlCatalogQueries.recognize(sql).orElseThrow();
        assertThat(query.kind()).isEqualTo(CatalogQuery.Kind.RELATIONS);
        assertThat(query.schema().orElseThrow().matches("shop")).isTrue();
        assertThat(query.schema().orElseThrow().matches("shops")).isFalse();
        assertThat(query.name()).isEmpty();
        assertThat(query.relkinds()).contains("r", "p");
    }

    @Test
    void describeQueriesCarryTheTableOid() {
        String columns = """
                SELECT a.attname,
                  pg_catalog.format_type(a.atttypid, a.atttypmod),
                  (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true)
                   FROM pg_catalog.pg_attrdef d
                   WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef),
                  a.attnotnull,
                  (SELECT c.collname FROM pg_catalog.pg_collation c, pg_catalog.pg_type t
                   WHERE c.oid = a.attcollation AND t.oid = a.atttypid AND a.attcollation <> t.typcollation) AS attcollation,
                  a.attidentity,
                  a.attgenerated
                FROM pg_catalog.pg_attribute a
                WHERE a.attrelid = '16390' AND a.attnum > 0 AND NOT a.attisdropped
                ORDER BY a.attnum;""";
        CatalogQuery query = PsqlCatalogQueries.recognize(columns).orElseThrow();
        assertThat(query.kind()).isEqualTo(CatalogQuery.Kind.COLUMNS);
        assertThat(query.oid()).contains(16390L);
        assertThat(PsqlCatalogQueries.recognize("SELECT pg_catalog.pg_get_partkeydef('16390'::pg_catalog.oid);"))
                .map(CatalogQuery::oid).contains(Optional.of(16390L));
    }

    @Test
    void verboseFormsAreRecognized() {
        String tables = """
                SELECT n.nspname as "Schema",
                  c.relname as "Name",
                  CASE c.relkind WHEN 'r' THEN 'table' WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' WHEN 'i' THEN 'index' WHEN 'S' THEN 'sequence' WHEN 't' THEN 'TOAST table' WHEN 'f' THEN 'foreign table' WHEN 'p' THEN 'partitioned table' WHEN 'I' THEN 'partitioned index' END as "Type",
                  pg_catalog.pg_get_userbyid(c.relowner) as "Owner",
                  CASE c.relpersistence WHEN 'p' THEN 'permanent' WHEN 't' THEN 'temporary' WHEN 'u' THEN 'unlogged' END as "Persistence",
                  am.amname as "Access method",
                  pg_catalog.pg_size_pretty(pg_catalog.pg_table_size(c.oid)) as "Size",
                  pg_catalog.obj_description(c.oid, 'pg_class') as "Description"
                FROM pg_catalog.pg_class c
                     LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                     LEFT JOIN pg_catalog.pg_am am ON am.oid = c.relam
                WHERE c.relkind IN ('r','p','t','s','')
                  AND c.relname OPERATOR(pg_catalog.~) '^(it.*)$' COLLATE pg_catalog.default
                  AND pg_catalog.pg_table_is_visible(c.oid)
                ORDER BY 1,2;""";
        CatalogQuery relations = PsqlCatalogQueries.recognize(tables).orElseThrow();
        assertThat(relations.kind()).isEqualTo(CatalogQuery.Kind.RELATIONS_VERBOSE);
        assertThat(relations.name().orElseThrow().matches("items")).isTrue();
        assertThat(relations.schema()).isEmpty();
        assertThat(relations.relkinds()).contains("r", "p");

        String columns = """
                SELECT a.attname,
                  pg_catalog.format_type(a.atttypid, a.atttypmod),
                  (SELECT pg_catalog.pg_get_expr(d.adbin, d.adrelid, true)
                   FROM pg_catalog.pg_attrdef d
                   WHERE d.adrelid = a.attrelid AND d.adnum = a.attnum AND a.atthasdef),
                  a.attnotnull,
                  (SELECT c.collname FROM pg_catalog.pg_collation c, pg_catalog.pg_type t
                   WHERE c.oid = a.attcollation AND t.oid = a.atttypid AND a.attcollation <> t.typcollation) AS attcollation,
                  a.attidentity,
                  a.attgenerated,
                  a.attstorage,
                  a.attcompression AS attcompression,
                  CASE WHEN a.attstattarget=-1 THEN NULL ELSE a.attstattarget END AS attstattarget,
                  pg_catalog.col_description(a.attrelid, a.attnum)
                FROM pg_catalog.pg_attribute a
                WHERE a.attrelid = '16386' AND a.attnum > 0 AND NOT a.attisdropped
                ORDER BY a.attnum;""";
        CatalogQuery verboseColumns = PsqlCatalogQueries.recognize(columns).orElseThrow();
        assertThat(verboseColumns.kind()).isEqualTo(CatalogQuery.Kind.COLUMNS_VERBOSE);
        assertThat(verboseColumns.oid()).contains(16386L);

        String schemas = """
                SELECT n.nspname AS "Name",
                  pg_catalog.pg_get_userbyid(n.nspowner) AS "Owner",
                  pg_catalog.array_to_string(n.nspacl, E'\\n') AS "Access privileges",
                  pg_catalog.obj_description(n.oid, 'pg_namespace') AS "Description"
                FROM pg_catalog.pg_namespace n
                WHERE n.nspname OPERATOR(pg_catalog.~) '^(shop)$' COLLATE pg_catalog.default
                ORDER BY 1;""";
        CatalogQuery verboseSchemas = PsqlCatalogQueries.recognize(schemas).orElseThrow();
        assertThat(verboseSchemas.kind()).isEqualTo(CatalogQuery.Kind.SCHEMAS_VERBOSE);
        assertThat(verboseSchemas.schema().orElseThrow().matches("shop")).isTrue();

        String databases = """
                SELECT d.datname as "Name",
                       pg_catalog.pg_get_userbyid(d.datdba) as "Owner",
                       pg_catalog.pg_encoding_to_char(d.encoding) as "Encoding",
                       d.datcollate as "Collate",
                       d.datctype as "Ctype",
                       NULL as "ICU Locale",
                       'libc' AS "Locale Provider",
                       pg_catalog.array_to_string(d.datacl, E'\\n') AS "Access privileges",
                       CASE WHEN pg_catalog.has_database_privilege(d.datname, 'CONNECT')
                            THEN pg_catalog.pg_size_pretty(pg_catalog.pg_database_size(d.datname))
                            ELSE 'No Access'
                       END as "Size",
                       t.spcname as "Tablespace",
                       pg_catalog.shobj_description(d.oid, 'pg_database') as "Description"
                FROM pg_catalog.pg_database d
                  JOIN pg_catalog.pg_tablespace t on d.dattablespace = t.oid
                ORDER BY 1;""";
        assertThat(PsqlCatalogQueries.recognize(databases)).map(CatalogQuery::kind)
                .contains(CatalogQuery.Kind.DATABASES_VERBOSE);
    }

    @Test
    void aNamePatternWithRegularExpressionOperatorsIsRefusedNotRun() {
        // \dt (a+)+b: psql passes the parentheses and pluses on as a regular expression.
        String sql = "SELECT c.oid, n.nspname, c.relname FROM pg_catalog.pg_class c"
                + " LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE c.relname OPERATOR(pg_catalog.~) '^((a+)+b)$' COLLATE pg_catalog.default ORDER BY 2, 3;";
        assertThatThrownBy(() -> PsqlCatalogQueries.recognize(sql)).isInstanceOf(PgException.class)
                .hasMessageContaining("^((a+)+b)$")
                .satisfies(e -> assertThat(((PgException) e).sqlState()).isEqualTo("0A000"));
    }

    @Test
    void otherCatalogQueriesAreNotRecognized() {
        assertThat(PsqlCatalogQueries.recognize("SELECT * FROM pg_catalog.pg_class")).isEmpty();
        assertThat(PsqlCatalogQueries.recognize("SELECT n.nspname AS \"Name\","
                + " pg_catalog.pg_get_userbyid(n.nspowner) AS \"Owner\", pg_catalog.array_to_string(n.nspacl, E'\\n')"
                + " AS \"Access privileges\" FROM pg_catalog.pg_namespace n ORDER BY 1")).isEmpty();
        assertThat(PsqlCatalogQueries.recognize("SELECT 1")).isEmpty();
    }
}
