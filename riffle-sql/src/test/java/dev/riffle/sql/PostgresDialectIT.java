package dev.riffle.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The PostgreSQL dialect of {@code jdbc:riffle} ({@code ;dialect=postgresql}, what the PostgreSQL
 * port speaks): the everyday SQL PostgreSQL users write, PostgreSQL's names for unnamed columns,
 * set-returning functions in select lists, the system catalogs as tables that join, and the
 * errors PostgreSQL gives. Each statement is checked by its column names and rows, as a user reads
 * them.
 */
@ExtendWith(LocalClusterExtension.class)
class PostgresDialectIT {

    @Test
    void everydayPostgresSqlAnswersAsInPostgres(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("pgsql");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".c_log (id INTEGER, v TEXT, at TIMESTAMP WITH TIME ZONE)"
                    + " WITH ('bucket.num' = '2')");
            statement.execute("INSERT INTO " + db + ".c_log VALUES (1, 'a', '2024-06-01T10:00:00Z'::timestamptz),"
                    + " (2, 'Abc', '2024-06-02 12:30:00+02'::timestamptz), (3, NULL, NULL)");
            String t = db + ".c_log";
            // column names | rows
            expect(sql, "SELECT 1::int, id::text FROM " + t + " WHERE id = 1", "int4|id", "1|1");
            expect(sql, "SELECT count(*), sum(id), max(v), 1 + 1 FROM " + t, "count|sum|max|?column?", "3|6|a|2");
            // sum(int) is a bigint, as in PostgreSQL: past 2^31 it neither wraps nor fails (vectorized or not)
            statement.execute("CREATE TABLE " + db + ".big (k INT, n INT, s SMALLINT)");
            statement.execute("INSERT INTO " + db + ".big VALUES (1, 2000000000, 30000), (1, 2000000000, 30000),"
                    + " (2, 2000000000, 30000)");
            expect(sql, "SELECT sum(n) AS n, sum(s) AS s, avg(n) FROM " + db + ".big", "n|s|avg", "6000000000|90000|2000000000");
            expect(sql, "SELECT k, sum(n) FROM " + db + ".big GROUP BY k ORDER BY k", "k|sum", "1|4000000000",
                    "2|2000000000");
            assertThat(sql.createStatement().executeQuery("SELECT sum(n) FROM " + db + ".big").getMetaData()
                    .getColumnType(1)).isEqualTo(java.sql.Types.BIGINT);
            // strings compare by code point, as PostgreSQL's C collation (Riffle's) does: 'A' < 'a'
            expect(sql, "SELECT v FROM " + t + " WHERE v ILIKE 'a%' ORDER BY v", "v", "Abc", "a");
            expect(sql, "SELECT v FROM " + t + " WHERE v ~ '^A' OR v ~* 'Z'", "v", "Abc");
            expect(sql, "SELECT v FROM " + t + " WHERE v OPERATOR(pg_catalog.~) '^a' COLLATE pg_catalog.default", "v",
                    "a");
            expect(sql, "SELECT v FROM " + t + " WHERE v !~ 'b' AND v NOT ILIKE 'z%'", "v", "a");
            expect(sql, "SELECT id FROM " + t + " WHERE id = ANY(ARRAY[1, 3]) ORDER BY id", "id", "1", "3");
            expect(sql, "SELECT id FROM " + t + " WHERE v IS DISTINCT FROM 'a' ORDER BY id", "id", "2", "3");
            expect(sql, "SELECT split_part('a,b,c', ',', 2), string_agg(v, ',' ORDER BY v) FROM " + t,
                    "split_part|string_agg", "b|Abc,a");
            expect(sql, "SELECT date_trunc('day', at) FROM " + t + " WHERE id = 2", "date_trunc",
                    "2024-06-02 00:00:00.0");
            expect(sql, "SELECT extract(epoch from at) FROM " + t + " WHERE id = 1", "extract", "1717236000");
            expect(sql, "SELECT count(*) FROM " + t + " WHERE at BETWEEN '2024-06-01T00:00:00Z' AND"
                    + " '2024-06-01T23:59:59Z'", "count", "1");
            expect(sql, "SELECT now() > '2020-01-01'::timestamptz, now() - interval '1 day' < now()",
                    "?column?|?column?0", "true|true");
            expect(sql, "SELECT to_char(TIMESTAMP '2024-06-01 10:00:00', 'YYYY-MM-DD')", "to_char", "2024-06-01");
            expect(sql, "SELECT E'a\\tb', 'it''s'", "?column?|?column?0", "a\tb|it's");
            expect(sql, "SELECT '{\"a\":1}'::json, 't'::bool, '1'::int8", "json|bool|int8", "{\"a\":1}|true|1");
            expect(sql, "SELECT CASE WHEN id > 1 THEN 'big' ELSE 'small' END FROM " + t + " WHERE id = 1", "case",
                    "small");
            expect(sql, "SELECT version() LIKE 'PostgreSQL 14.0%', current_database(), current_schema()",
                    "?column?|current_database|current_schema", "true|riffle|fluss");
            expect(sql, "SELECT generate_series(1, 3)", "generate_series", "1", "2", "3");
            expect(sql, "SELECT g FROM generate_series(2, 10, 4) AS g", "g", "2", "6", "10");
            expect(sql, "SELECT unnest(ARRAY['x', 'y']), generate_subscripts(ARRAY['x', 'y'], 1)",
                    "unnest|generate_subscripts", "x|1", "y|2");
            expect(sql, "SELECT array[1,2], (ARRAY[10, 20])[2]", "array|?column?", "[1, 2]|20");
        }
    }

    @Test
    void theSystemCatalogsAreTablesOfTheLiveCatalog(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("pgcat");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".orders (id BIGINT PRIMARY KEY, region TEXT, amount"
                    + " NUMERIC(10, 2)) COMMENT 'the orders'");
            expect(sql, "SELECT c.relname, c.relkind FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n"
                    + " ON n.oid = c.relnamespace WHERE n.nspname = '" + db + "' ORDER BY c.relname", "relname|relkind",
                    "orders|r", "orders_pkey|i");
            expect(sql, "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull"
                    + " FROM pg_catalog.pg_attribute a WHERE a.attrelid = '" + db + ".orders'::regclass AND a.attnum > 0"
                    + " ORDER BY a.attnum", "attname|format_type|attnotnull", "id|bigint|true", "region|text|false",
                    "amount|numeric(10,2)|false");
            expect(sql, "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
                    + " WHERE table_schema = '" + db + "' AND table_name = 'orders' ORDER BY ordinal_position",
                    "column_name|data_type|is_nullable", "id|bigint|NO", "region|text|YES", "amount|numeric|YES");
            expect(sql, "SELECT obj_description('" + db + ".orders'::regclass, 'pg_class'), '" + db
                    + ".orders'::regclass::text", "obj_description|text",
                    // the schema's name has capitals: PostgreSQL quotes it
                    "the orders|\"" + db + "\".orders");
            expect(sql, "SELECT pg_get_indexdef(i.indexrelid), pg_get_constraintdef(con.oid) FROM pg_index i"
                    + " JOIN pg_constraint con ON con.conindid = i.indexrelid WHERE i.indrelid = '" + db
                    + ".orders'::regclass", "pg_get_indexdef|pg_get_constraintdef",
                    "CREATE UNIQUE INDEX orders_pkey ON \"" + db + "\".orders USING btree (id)|PRIMARY KEY (id)");
            expect(sql, "SELECT count(*) FROM pg_tables WHERE schemaname = '" + db + "' AND tablename IN"
                    + " (SELECT table_name FROM information_schema.tables WHERE table_schema = '" + db + "')", "count",
                    "1");
            // pgjdbc's primary keys: a set-returning function kept whole and read by its fields outside
            expect(sql, "SELECT result.column_name, result.key_seq FROM (SELECT a.attname AS column_name,"
                    + " (information_schema._pg_expandarray(con.conkey)).n AS key_seq,"
                    + " information_schema._pg_expandarray(con.conkey) AS keys, a.attnum AS a_attnum"
                    + " FROM pg_catalog.pg_constraint con JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid"
                    + " WHERE con.contype = 'p' AND con.conrelid = '" + db + ".orders'::regclass) result"
                    + " WHERE result.a_attnum = (result.keys).x", "column_name|key_seq", "id|1");
            // a table made after the last statement is seen by the next (the catalog is read live)
            statement.execute("CREATE TABLE " + db + ".later (k INT)");
            expect(sql, "SELECT relname FROM pg_class WHERE relnamespace = '" + db + "'::regnamespace AND relkind = 'r'"
                    + " ORDER BY 1", "relname", "later", "orders");
        }
    }

    @Test
    void failuresAreTheStatementsNamedAsPostgresNamesThem(LocalCluster cluster) throws Exception {
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            assertThatThrownBy(() -> statement.executeQuery("SELECT 2147483647 + x FROM (VALUES (1)) AS v(x)").next())
                    .hasStackTraceContaining("overflow");
            assertThatThrownBy(() -> statement.executeQuery("SELECT x FROM (VALUES (1), (2)) AS v(x) GROUP BY 'a'"
                    + " HAVING x > 0").next()).isInstanceOf(SQLException.class);
            assertThatThrownBy(() -> statement.executeQuery("SELECT unnest(ARRAY[1]), generate_series(1, 2)"))
                    .hasStackTraceContaining("one array or series at a time");
            assertThatThrownBy(() -> statement.executeQuery("SELECT txid_current()").next())
                    .hasStackTraceContaining("Riffle has no transactions");
            assertThatThrownBy(() -> statement.executeQuery("SELECT 'x' ~ '('").next())
                    .hasStackTraceContaining("invalid regular expression");
        }
    }

    @Test
    void aRegularExpressionThatBacktracksStopsAtTheDeadline(LocalCluster cluster) throws Exception {
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.setQueryTimeout(1);
            long started = System.nanoTime();
            // ((a+)*)+c over 40 a's backtracks for hours (7 s over 26 a's on this machine), unless the
            // match checks the statement's deadline
            assertThatThrownBy(() -> statement.executeQuery("SELECT x ~ '((a+)*)+c' FROM (VALUES (repeat('a', 40)))"
                    + " AS v(x)").next()).hasStackTraceContaining("statement timeout");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(3_000);
        }
    }

    private static Connection connect(LocalCluster cluster) throws SQLException {
        return DriverManager.getConnection("jdbc:riffle://" + cluster.bootstrapServers() + ";dialect=postgresql");
    }

    /** An array's elements as [a, b], whatever the array's component type. */
    private static String elements(Object array) {
        StringJoiner elements = new StringJoiner(", ", "[", "]");
        for (int i = 0; i < java.lang.reflect.Array.getLength(array); i++) {
            elements.add(String.valueOf(java.lang.reflect.Array.get(array, i)));
        }
        return elements.toString();
    }

    /** Runs {@code query}; its column labels joined by | must be {@code columns} and its rows {@code rows}, in order. */
    private static void expect(Connection sql, String query, String columns, String... rows) throws SQLException {
        try (Statement statement = sql.createStatement(); ResultSet rs = statement.executeQuery(query)) {
            ResultSetMetaData meta = rs.getMetaData();
            StringJoiner labels = new StringJoiner("|");
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                labels.add(meta.getColumnLabel(i));
            }
            List<String> actual = new ArrayList<>();
            while (rs.next()) {
                StringJoiner row = new StringJoiner("|");
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    Object value = rs.getObject(i);
                    row.add(value instanceof java.sql.Array array ? elements(array.getArray()) : String.valueOf(value));
                }
                actual.add(row.toString());
            }
            assertThat(labels.toString()).as("columns of " + query).isEqualTo(columns);
            assertThat(actual).as("rows of " + query).containsExactly(rows);
        }
    }
}
