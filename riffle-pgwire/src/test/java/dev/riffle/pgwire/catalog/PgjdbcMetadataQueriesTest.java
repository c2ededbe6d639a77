package dev.riffle.pgwire.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** pgjdbc 42.7's metadata queries are recognized, and their bound LIKE patterns applied. */
class PgjdbcMetadataQueriesTest {

    @Test
    void primaryKeysTakeTheSchemaAndTableAsExactNames() {
        String sql = "SELECT        result.TABLE_CAT AS \"TABLE_CAT\",        result.TABLE_SCHEM AS \"TABLE_SCHEM\","
                + "        result.TABLE_NAME AS \"TABLE_NAME\",        result.COLUMN_NAME AS \"COLUMN_NAME\","
                + "        result.KEY_SEQ AS \"KEY_SEQ\",        result.PK_NAME AS \"PK_NAME\"FROM      (SELECT"
                + " current_database() AS TABLE_CAT, n.nspname AS TABLE_SCHEM,   ct.relname AS TABLE_NAME, a.attname AS"
                + " COLUMN_NAME FROM pg_catalog.pg_constraint con   JOIN pg_catalog.pg_class ct ON (con.conrelid = ct.oid)"
                + " WHERE con.contype = 'p'  AND n.nspname = $1 AND ct.relname = $2 ) result where "
                + " result.A_ATTNUM = (result.KEYS).x  ORDER BY result.table_name, result.pk_name, result.key_seq";
        CatalogQuery query = PgjdbcMetadataQueries.recognize(sql).orElseThrow();
        assertThat(query.kind()).isEqualTo(CatalogQuery.Kind.JDBC_PRIMARY_KEYS);
        CatalogQuery bound = query.bind(List.of(Optional.of("shop"), Optional.of("it_ms")));
        assertThat(bound.schema().orElseThrow().matches("shop")).isTrue();
        assertThat(bound.name().orElseThrow().matches("it_ms")).isTrue();
        assertThat(bound.name().orElseThrow().matches("itxms")).as("_ is no wildcard in =").isFalse();
    }

    @Test
    void likePatternsMatchAsSqlDoes() {
        assertThat(NamePattern.like("it%").matches("items")).isTrue();
        assertThat(NamePattern.like("i_ems").matches("items")).isTrue();
        assertThat(NamePattern.like("a\\_b").matches("axb")).isFalse();
        assertThat(NamePattern.like("a.b").matches("axb")).isFalse();
    }
}
