package dev.riffle.sql.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.sql.catalog.FlussDdlExecutor;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;

class DdlParserTest {

    @Test
    void leavesQueriesAndDmlToCalcite() {
        assertThat(DdlParser.parse("SELECT 1")).isEmpty();
        assertThat(DdlParser.parse("  insert into t values (1)")).isEmpty();
        assertThat(DdlParser.parse("EXPLAIN PLAN FOR SELECT 'CREATE TABLE'")).isEmpty();
        // an unterminated string in a query is Calcite's to report
        assertThat(DdlParser.parse("SELECT 'oops")).isEmpty();
    }

    @Test
    void parsesCreateTableWithNestedTypesKeysPartitionsAndOptions() {
        DdlStatement statement = DdlParser.parse("""
                -- orders, Flink style
                CREATE TABLE IF NOT EXISTS shop.`orders` (
                  id BIGINT NOT NULL COMMENT 'the id',
                  "region" STRING,
                  attrs MAP<STRING, ARRAY<INT>>,
                  point ROW<x DOUBLE, y DOUBLE>,
                  amount DECIMAL(10, 2),
                  PRIMARY KEY (id, "region") NOT ENFORCED
                ) COMMENT 'it''s orders' PARTITIONED BY (region)
                WITH ('bucket.num' = '4', 'table.datalake.enabled' = 'true');
                """).orElseThrow();
        DdlStatement.CreateTable create = (DdlStatement.CreateTable) statement;
        assertThat(create.database()).contains("shop");
        assertThat(create.name()).isEqualTo("orders");
        assertThat(create.ifNotExists()).isTrue();
        assertThat(create.columns()).extracting(DdlStatement.Column::name)
                .containsExactly("id", "region", "attrs", "point", "amount");
        assertThat(create.columns()).extracting(DdlStatement.Column::type).containsExactly("BIGINT NOT NULL", "STRING",
                "MAP<STRING, ARRAY<INT>>", "ROW<x DOUBLE, y DOUBLE>", "DECIMAL(10, 2)");
        assertThat(create.columns().get(0).comment()).contains("the id");
        assertThat(create.primaryKey()).containsExactly("id", "region");
        assertThat(create.partitionKeys()).containsExactly("region");
        assertThat(create.comment()).contains("it's orders");
        assertThat(create.options()).containsExactly(Map.entry("bucket.num", "4"),
                Map.entry("table.datalake.enabled", "true"));
    }

    @Test
    void aColumnCanBeThePrimaryKeyInline() {
        DdlStatement.CreateTable create = (DdlStatement.CreateTable) DdlParser
                .parse("create table t (k VARCHAR(10) PRIMARY KEY NOT ENFORCED, v INT)").orElseThrow();
        assertThat(create.database()).isEmpty();
        assertThat(create.primaryKey()).containsExactly("k");
        assertThat(create.columns().get(0).type()).isEqualTo("VARCHAR(10)");
    }

    @Test
    void optionsMapToBucketsPropertiesAndCustomProperties() {
        DdlStatement.CreateTable create = (DdlStatement.CreateTable) DdlParser.parse(
                "CREATE TABLE t (k INT, v VARCHAR, w REAL) WITH ('bucket.num'='3', 'bucket.key'='k',"
                        + " 'table.log.ttl'='1h', 'team'='a')").orElseThrow();
        TableDescriptor descriptor = FlussDdlExecutor.descriptor(create);
        assertThat(descriptor.getTableDistribution().orElseThrow().getBucketCount()).contains(3);
        assertThat(descriptor.getBucketKeys()).containsExactly("k");
        assertThat(descriptor.getProperties()).containsExactly(Map.entry("table.log.ttl", "1h"));
        assertThat(descriptor.getCustomProperties()).containsExactly(Map.entry("team", "a"));
        assertThat(descriptor.getSchema().getRowType().getTypeAt(1)).isEqualTo(DataTypes.STRING());
        assertThat(descriptor.getSchema().getRowType().getTypeAt(2)).isEqualTo(DataTypes.FLOAT());
    }

    @Test
    void parsesDatabasesAndDrops() {
        assertThat(DdlParser.parse("CREATE SCHEMA IF NOT EXISTS s COMMENT 'x' WITH ('a'='b')")).contains(
                new DdlStatement.CreateDatabase("s", true, Optional.of("x"), Map.of("a", "b")));
        assertThat(DdlParser.parse("DROP DATABASE IF EXISTS s CASCADE"))
                .contains(new DdlStatement.DropDatabase("s", true, true));
        assertThat(DdlParser.parse("drop database s")).contains(new DdlStatement.DropDatabase("s", false, false));
        assertThat(DdlParser.parse("DROP TABLE IF EXISTS a.b"))
                .contains(new DdlStatement.DropTable(Optional.of("a"), "b", true));
    }

    @Test
    void parsesAlterTableAddSetAndReset() {
        assertThat(DdlParser.parse("ALTER TABLE shop.orders ADD note STRING COMMENT 'free text'")).contains(
                new DdlStatement.AlterTable(Optional.of("shop"), "orders", false, List.of(new DdlStatement.AddColumn(
                        new DdlStatement.Column("note", "STRING", Optional.of("free text"))))));
        assertThat(DdlParser.parse("alter table if exists orders add column tags ARRAY<STRING>")).contains(
                new DdlStatement.AlterTable(Optional.empty(), "orders", true, List.of(new DdlStatement.AddColumn(
                        new DdlStatement.Column("tags", "ARRAY<STRING>", Optional.empty())))));
        assertThat(DdlParser.parse("ALTER TABLE t ADD (a INT, b DECIMAL(10, 2))")).contains(
                new DdlStatement.AlterTable(Optional.empty(), "t", false, List.of(
                        new DdlStatement.AddColumn(new DdlStatement.Column("a", "INT", Optional.empty())),
                        new DdlStatement.AddColumn(new DdlStatement.Column("b", "DECIMAL(10, 2)", Optional.empty())))));
        assertThat(DdlParser.parse("ALTER TABLE t SET ('table.datalake.freshness' = '1min', 'owner' = 'b')")).contains(
                new DdlStatement.AlterTable(Optional.empty(), "t", false, List.of(
                        new DdlStatement.SetOption("table.datalake.freshness", "1min"),
                        new DdlStatement.SetOption("owner", "b"))));
        assertThat(DdlParser.parse("ALTER TABLE t RESET ('owner')")).contains(
                new DdlStatement.AlterTable(Optional.empty(), "t", false, List.of(new DdlStatement.ResetOption("owner"))));
    }

    @Test
    void badAlterTableNamesWhatIsWrong() {
        assertThatThrownBy(() -> DdlParser.parse("ALTER TABLE t DROP COLUMN v"))
                .hasMessageContaining("expected ADD [COLUMN] ..., SET (...) or RESET (...) after ALTER TABLE t");
        assertThatThrownBy(() -> DdlParser.parse("ALTER TABLE t ADD id INT PRIMARY KEY"))
                .hasMessageContaining("cannot be part of the primary key");
        assertThatThrownBy(() -> DdlParser.parse("ALTER TABLE t SET ()")).hasMessageContaining("at least one option");
        assertThatThrownBy(() -> DdlParser.parse("ALTER TABLE t RESET (owner)"))
                .hasMessageContaining("an option name in quotes");
        assertThatThrownBy(() -> DdlParser.parse("ALTER VIEW v AS SELECT 1"))
                .hasMessageContaining("Unsupported statement ALTER VIEW");
    }

    @Test
    void errorsSayWhereAndWhatWasExpected() {
        assertThatThrownBy(() -> DdlParser.parse("CREATE TABLE t (id INT,\n v INT"))
                .isInstanceOf(DdlSyntaxException.class).hasMessage(
                        "Syntax error at line 2, column 7: expected ')' but found the end of the statement");
        assertThatThrownBy(() -> DdlParser.parse("CREATE TABLE t (id INT) WITH (bucket.num = 4)"))
                .hasMessageContaining("expected an option name in quotes");
        assertThatThrownBy(() -> DdlParser.parse("CREATE TABLE a.b.c (id INT)")).hasMessageContaining("3 parts");
        assertThatThrownBy(() -> DdlParser.parse("CREATE TABLE t (id)")).hasMessageContaining("the type of column id");
        assertThatThrownBy(() -> DdlParser.parse("DROP VIEW v")).hasMessageContaining("Unsupported statement DROP VIEW");
        assertThatThrownBy(() -> DdlParser.parse("CREATE TABLE t (id INT, PRIMARY KEY (id), PRIMARY KEY (id))"))
                .hasMessageContaining("a second PRIMARY KEY");
        assertThatThrownBy(() -> DdlParser.parse("DROP TABLE t; DROP TABLE u"))
                .hasMessageContaining("one statement at a time");
        assertThatThrownBy(() -> DdlParser.parse("CREATE TABLE t (id INT) WITH ('a'='1', 'a'='2')"))
                .hasMessageContaining("option 'a' only once");
    }

    @Test
    void takesWhatPostgresToolsWrite() {
        // SQLAlchemy's and pandas' CREATE TABLE: PostgreSQL's type names, NULL, a named primary key
        DdlStatement.CreateTable create = (DdlStatement.CreateTable) DdlParser.parse("""
                CREATE TABLE frame (n BIGINT NULL, name TEXT NOT NULL, x DOUBLE PRECISION,
                    at TIMESTAMP WITHOUT TIME ZONE, CONSTRAINT frame_pkey PRIMARY KEY (name))""").orElseThrow();
        assertThat(create.columns()).extracting(DdlStatement.Column::type)
                .containsExactly("BIGINT", "TEXT NOT NULL", "DOUBLE PRECISION", "TIMESTAMP WITHOUT TIME ZONE");
        assertThat(create.primaryKey()).containsExactly("name");
        assertThat(FlussDdlExecutor.descriptor(create).getSchema().getRowType().getTypeAt(1))
                .isEqualTo(DataTypes.STRING().copy(false));

        assertThat(DdlParser.parse("DROP TABLE IF EXISTS t CASCADE"))
                .contains(new DdlStatement.DropTable(Optional.empty(), "t", true));
        assertThat(DdlParser.parse("DROP TABLE shop.t RESTRICT"))
                .contains(new DdlStatement.DropTable(Optional.of("shop"), "t", false));
    }

    @Test
    void createIndexIsKeptOnlyAsItsTableAndSaysItDidNothing() {
        DdlStatement index = DdlParser.parse("CREATE INDEX t1i0 ON shop.t1(a1, b1 DESC) WHERE a1 > 0").orElseThrow();
        assertThat(index).isEqualTo(new DdlStatement.CreateIndex(Optional.of("t1i0"), Optional.of("shop"), "t1"));
        assertThat(index.notice()).get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .contains("Fluss has no secondary indexes").contains("did nothing");
        assertThat(DdlParser.parse("create index concurrently if not exists on t using btree (a)"))
                .contains(new DdlStatement.CreateIndex(Optional.empty(), Optional.empty(), "t"));
        assertThat(DdlParser.parse("DROP INDEX IF EXISTS t1i0")).contains(new DdlStatement.DropIndex("t1i0"));
        assertThat(DdlParser.parse("CREATE TABLE t (id INT)").orElseThrow().notice()).isEmpty();
        assertThatThrownBy(() -> DdlParser.parse("CREATE INDEX i ON t")).hasMessageContaining("'(' and the indexed columns");
    }

    @Test
    void constraintsFlussWouldNotKeepAreRefusedNotDropped() {
        for (String sql : List.of("CREATE UNIQUE INDEX i ON t (a)", "CREATE TABLE t (a INTEGER UNIQUE)",
                "CREATE TABLE t (a INT, UNIQUE (a))", "CREATE TABLE t (a INT DEFAULT 0)",
                "CREATE TABLE t (a INT REFERENCES u (a))", "CREATE TABLE t (a INT CHECK (a > 0))",
                "CREATE TABLE t (a INT, CONSTRAINT a_fk FOREIGN KEY (a) REFERENCES u (a))")) {
            assertThatThrownBy(() -> DdlParser.parse(sql)).as(sql).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("primary key");
        }
    }
}
