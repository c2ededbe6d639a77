package dev.riffle.sql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.engine.InsertValues.Value;
import java.util.List;
import java.util.Optional;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InsertValuesTest {

    @Test
    void readsParametersAndLiteralsOfManyRows() {
        InsertValues insert = InsertValues.parse("insert into Shop.\"Orders\" (id, \"Name\", amount, ok, note) values"
                + " (?, 'O''Brien', -1.5e3, TRUE, NULL),\n (?, 'a\\b ü', +7, false, '')  ;", Dialect.POSTGRESQL)
                .orElseThrow();
        assertThat(insert.name()).containsExactly("shop", "Orders"); // unquoted names fold, as PostgreSQL folds them
        assertThat(insert.written()).containsExactly("Shop", "Orders");
        assertThat(insert.columns()).contains(List.of("id", "Name", "amount", "ok", "note"));
        assertThat(insert.rows()).containsExactly(
                List.of(new Value.Parameter(0), new Value.Literal("O'Brien"), new Value.Number("-1.5e3"),
                        new Value.Bool(true), new Value.Null()),
                List.of(new Value.Parameter(1), new Value.Literal("a\\b ü"), new Value.Number("7"),
                        new Value.Bool(false), new Value.Literal("")));
        assertThat(insert.parameters()).isEqualTo(2);
        assertThat(insert.qualified()).contains(TablePath.of("shop", "Orders"));
    }

    @Test
    void keepsTheCaseOfNamesInRifflesOwnDialect() {
        InsertValues insert = InsertValues.match("INSERT INTO Shop.Orders VALUES (?, ?)").orElseThrow();
        assertThat(insert.table()).isEqualTo(TablePath.of("Shop", "Orders"));
        assertThat(insert.columns()).isEmpty();
        assertThat(insert.parameters()).isEqualTo(2);
    }

    @Test
    void matchTakesOnlyOneRowOfParametersIntoAQualifiedTable() {
        assertThat(InsertValues.match("INSERT INTO orders VALUES (?, ?)")).isEmpty();
        assertThat(InsertValues.match("INSERT INTO s.orders VALUES (?, 1)")).isEmpty();
        assertThat(InsertValues.match("INSERT INTO s.orders VALUES (?), (?)")).isEmpty();
        assertThat(InsertValues.parse("INSERT INTO orders VALUES (?, 1)", Dialect.POSTGRESQL).orElseThrow().name())
                .containsExactly("orders");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT 1",
            "INSERT INTO t VALUES (1 + 1)",
            "INSERT INTO t VALUES (DATE '2024-01-01')",
            "INSERT INTO t VALUES ('2024-01-01'::date)",
            "INSERT INTO t VALUES (E'a\\nb')",
            "INSERT INTO t VALUES ('a' 'b')",
            "INSERT INTO t VALUES ('a'\n'b')",
            "INSERT INTO t VALUES (DEFAULT)",
            "INSERT INTO t VALUES (1), (1, 2)",
            "INSERT INTO t (a, b) VALUES (1)",
            "INSERT INTO t VALUES (1) RETURNING *",
            "INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING",
            "INSERT INTO t SELECT * FROM u",
            "INSERT INTO t VALUES (1); DELETE FROM t",
            "INSERT INTO t VALUES (1) -- comment",
            "INSERT INTO t VALUES (--1)",
            "INSERT INTO t VALUES (1abc)",
            "INSERT INTO t VALUES (1.2.3)",
            "INSERT INTO t VALUES ('unterminated)",
            "INSERT INTO a.b.c VALUES (1)",
            "INSERT INTO t VALUES ()",
            "INSERT INTO \"\" VALUES (1)",
            "INSERT INTO t VALUES (x)",
            "INSERT INTO t VALUES ($1)",
            "INSERT INTO t VALUES (1e)",
    })
    void leavesEveryOtherStatementToTheEngine(String sql) {
        assertThat(InsertValues.parse(sql, Dialect.POSTGRESQL)).isEqualTo(Optional.empty());
    }
}
