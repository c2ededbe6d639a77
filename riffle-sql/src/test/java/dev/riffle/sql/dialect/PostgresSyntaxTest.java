package dev.riffle.sql.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class PostgresSyntaxTest {
    @Test
    void psqlsOperatorAndCollateSpellingsAreCalcites() {
        assertThat(PostgresSyntax.normalize("WHERE c.relname OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default"))
                .isEqualTo("WHERE c.relname  ~  '^(t)$'");
        // inside strings and quoted names nothing changes
        assertThat(PostgresSyntax.normalize("SELECT 'OPERATOR(pg_catalog.~)', \"interval\" FROM t"))
                .isEqualTo("SELECT 'OPERATOR(pg_catalog.~)', \"interval\" FROM t");
    }

    @Test
    void escapeStringsAreReadIntoStandardLiterals() {
        assertThat(PostgresSyntax.normalize("SELECT E'a\\nb', e'it\\'s', E'\\x41\\u00e9'"))
                .isEqualTo("SELECT 'a\nb', 'it''s', 'A\u00e9'");
    }

    @Test
    void intervalTextIsCalcitesIntervalLiterals() {
        assertThat(PostgresSyntax.normalize("SELECT now() - interval '1 day'")).isEqualTo("SELECT now() - INTERVAL '1' DAY");
        assertThat(PostgresSyntax.normalize("SELECT '2 hours 30 minutes'::interval"))
                .isEqualTo("SELECT (INTERVAL '2' HOUR + INTERVAL '30' MINUTE)");
        assertThat(PostgresSyntax.normalize("SELECT INTERVAL '1' DAY")).isEqualTo("SELECT INTERVAL '1' DAY");
        assertThat(PostgresIntervals.calcite("1.5 hours")).contains("INTERVAL '5400' SECOND");
        assertThat(PostgresIntervals.calcite("-3 mons")).contains("INTERVAL '-3' MONTH");
        assertThat(PostgresIntervals.calcite("2 weeks")).contains("INTERVAL '14' DAY");
        assertThat(PostgresIntervals.calcite("01:30:15.5"))
                .contains("(INTERVAL '01' HOUR + INTERVAL '30' MINUTE + INTERVAL '15.5' SECOND)");
        assertThat(PostgresIntervals.calcite("1 fortnight")).isEmpty(); // left for the parser to name
        assertThat(PostgresIntervals.calcite("1.5 years")).isEmpty();
    }

    @Test
    void unnestInAnExpressionIsTheSetReturningFunctionAndInFromTheTable() {
        assertThat(PostgresSyntax.normalize("SELECT unnest(ix.indkey) attnum FROM pg_index ix"))
                .isEqualTo("SELECT pg_unnest(ix.indkey) attnum FROM pg_index ix");
        assertThat(PostgresSyntax.normalize("SELECT x FROM pg_catalog.unnest(a) x, unnest(b) y"))
                .isEqualTo("SELECT x FROM unnest(a) x, unnest(b) y");
        assertThat(PostgresSyntax.normalize("SELECT array(select 'toast.' || x from pg_catalog.unnest(r) x), "
                + "pg_catalog.unnest(r)")).isEqualTo("SELECT array(select 'toast.' || x from unnest(r) x), pg_unnest(r)");
    }

    @Test
    void reservedWordsTakenAsColumnLabelsAreQuoted() {
        assertThat(PostgresSyntax.normalize("SELECT pg_get_expr(d.adbin, d.adrelid) AS DEFAULT, a.attname AS user FROM t"))
                .isEqualTo("SELECT pg_get_expr(d.adbin, d.adrelid) AS \"default\", a.attname AS \"user\" FROM t");
        // a type after AS stays a type
        assertThat(PostgresSyntax.normalize("SELECT CAST(x AS TIMESTAMP), y AS value")).isEqualTo(
                "SELECT CAST(x AS TIMESTAMP), y AS \"value\"");
    }

    @Test
    void explainAsPostgresWritesItIsCalcitesExplainPlan() {
        assertThat(PostgresSyntax.normalize("EXPLAIN SELECT 1")).isEqualTo("EXPLAIN PLAN FOR SELECT 1");
        assertThat(PostgresSyntax.normalize("  explain verbose (FORMAT TEXT, COSTS off) WITH a AS (SELECT 1) SELECT * FROM a"))
                .isEqualTo("  EXPLAIN PLAN FOR WITH a AS (SELECT 1) SELECT * FROM a");
        assertThat(PostgresSyntax.normalize("EXPLAIN PLAN FOR SELECT 1")).isEqualTo("EXPLAIN PLAN FOR SELECT 1");
        assertThat(PostgresSyntax.normalize("EXPLAIN (ANALYZE false) SELECT 1")).isEqualTo("EXPLAIN PLAN FOR SELECT 1");
        assertThatThrownBy(() -> PostgresSyntax.normalize("EXPLAIN ANALYZE SELECT 1"))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("EXPLAIN ANALYZE is not supported");
        assertThatThrownBy(() -> PostgresSyntax.normalize("EXPLAIN (ANALYSE, BUFFERS) SELECT 1"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void reservedWordsAfterAQualifierAreNames() {
        // PostgreSQL does not reserve ROWS or VALUE: bench.rows is a table, e.value a column
        assertThat(PostgresSyntax.normalize("SELECT e.VALUE, e.id FROM bench.rows e")).isEqualTo(
                "SELECT e.\"value\", e.id FROM bench.\"rows\" e");
        // a quoted name after the qualifier is the name: what follows it is not
        assertThat(PostgresSyntax.normalize("SELECT CASE \"c\".\"relkind\" WHEN 'r' THEN 1 END FROM t \"c\"")).isEqualTo(
                "SELECT CASE \"c\".\"relkind\" WHEN 'r' THEN 1 END FROM t \"c\"");
        // a qualified function call keeps its name
        assertThat(PostgresSyntax.normalize("SELECT pg_catalog.count(*) FROM t")).isEqualTo(
                "SELECT pg_catalog.count(*) FROM t");
    }

    @Test
    void timestampsAsPostgresReadsThem() {
        assertThat(PostgresDateTimes.timestamp("2024-06-01T10:00:00", false)).contains("2024-06-01 10:00:00");
        assertThat(PostgresDateTimes.timestamp("2024-06-01 10:00", false)).contains("2024-06-01 10:00:00");
        assertThat(PostgresDateTimes.timestamp("2024-06-01", false)).contains("2024-06-01 00:00:00");
        assertThat(PostgresDateTimes.timestamp("2024-06-01T10:00:00.25Z", true)).contains("2024-06-01 10:00:00.25 UTC");
        assertThat(PostgresDateTimes.timestamp("2024-06-01 01:00:00+02", true)).contains("2024-05-31 23:00:00 UTC");
        assertThat(PostgresDateTimes.timestamp("2024-06-01 10:00:00-05:30", true)).contains("2024-06-01 15:30:00 UTC");
        // a zone means nothing to a timestamp without one, as in PostgreSQL
        assertThat(PostgresDateTimes.timestamp("2024-06-01 10:00:00+02", false)).contains("2024-06-01 10:00:00");
        assertThat(PostgresDateTimes.timestamp("2024-13-01", false)).isEqualTo(Optional.empty());
        assertThat(PostgresDateTimes.timestamp("yesterday", false)).isEmpty();
    }

    @Test
    void booleansAsPostgresReadsThem() {
        for (String yes : new String[] {"t", "TRUE", " yes ", "y", "on", "1"}) {
            assertThat(PostgresTypeCoercion.bool(yes)).as(yes).contains(true);
        }
        for (String no : new String[] {"f", "false", "NO", "off", "0"}) {
            assertThat(PostgresTypeCoercion.bool(no)).as(no).contains(false);
        }
        assertThat(PostgresTypeCoercion.bool("o")).isEmpty(); // on or off
        assertThat(PostgresTypeCoercion.bool("maybe")).isEmpty();
    }

    @Test
    void aFunctionInFromIsATableFunctionCall() {
        assertThat(PostgresSyntax.normalize("SELECT s[i] FROM generate_series(array_lower(a, 1), 3) as i, b s"))
                .isEqualTo("SELECT s[i] FROM TABLE(generate_series(array_lower(a, 1), 3)) as i, b s");
        assertThat(PostgresSyntax.normalize("SELECT * FROM t, (SELECT 1) x JOIN f(g(1)) y ON true"))
                .isEqualTo("SELECT * FROM t, (SELECT 1) x JOIN TABLE(f(g(1))) y ON true");
        // a table's alias with its column names is no call
        assertThat(PostgresSyntax.normalize("SELECT * FROM t AS x(a, b), u v(c)"))
                .isEqualTo("SELECT * FROM t AS x(a, b), u v(c)");
    }
}
