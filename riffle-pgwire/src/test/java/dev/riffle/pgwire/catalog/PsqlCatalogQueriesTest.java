package dev.riffle.pgwire.catalog;

import static org.assertj.core.api.Assertions.assertThat;

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
        assertThat(query.schema().orElseThrow().matcher("shop").matches()).isTrue();
        assertThat(query.schema().orElseThrow().matcher("shops").matches()).isFalse();
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
    void otherCatalogQueriesAreNotRecognized() {
        assertThat(PsqlCatalogQueries.recognize("SELECT * FROM pg_catalog.pg_class")).isEmpty();
        assertThat(PsqlCatalogQueries.recognize("SELECT n.nspname AS \"Name\","
                + " pg_catalog.pg_get_userbyid(n.nspowner) AS \"Owner\", pg_catalog.array_to_string(n.nspacl, E'\\n')"
                + " AS \"Access privileges\" FROM pg_catalog.pg_namespace n ORDER BY 1")).isEmpty();
        assertThat(PsqlCatalogQueries.recognize("SELECT 1")).isEmpty();
    }
}
