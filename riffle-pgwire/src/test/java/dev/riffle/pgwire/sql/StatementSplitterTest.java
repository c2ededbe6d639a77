package dev.riffle.pgwire.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.sql.dialect.StatementSplitter;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatementSplitterTest {

    @Test
    void splitsAtSemicolonsOutsideQuotesAndComments() {
        assertThat(StatementSplitter.split("SELECT 1; SELECT 2;")).containsExactly("SELECT 1", "SELECT 2");
        assertThat(StatementSplitter.split("SELECT ';', 'it''s;'; SELECT \"a;b\" FROM t"))
                .containsExactly("SELECT ';', 'it''s;'", "SELECT \"a;b\" FROM t");
        assertThat(StatementSplitter.split("SELECT 1 -- a; comment\n; SELECT /* a; /* nested; */ b; */ 2"))
                .containsExactly("SELECT 1 -- a; comment", "SELECT /* a; /* nested; */ b; */ 2");
        assertThat(StatementSplitter.split("SELECT $$a;b$$; SELECT $tag$ ; $$ ; $tag$"))
                .containsExactly("SELECT $$a;b$$", "SELECT $tag$ ; $$ ; $tag$");
        assertThat(StatementSplitter.split("SELECT E'\\';'; SELECT 2")).containsExactly("SELECT E'\\';'", "SELECT 2");
    }

    @Test
    void dropsEmptyStatements() {
        assertThat(StatementSplitter.split("")).isEmpty();
        assertThat(StatementSplitter.split(" ;; -- only a comment\n ; /* x */")).isEmpty();
        assertThat(StatementSplitter.split(";SELECT 1;;")).containsExactly("SELECT 1");
        assertThat(StatementSplitter.isBlank("  /* c */ -- d\n")).isTrue();
        assertThat(StatementSplitter.isBlank("  /* c */ x")).isFalse();
    }

    @Test
    void anUnterminatedQuoteKeepsTheRestInOneStatement() {
        assertThat(StatementSplitter.split("SELECT 'a; SELECT 2")).containsExactly("SELECT 'a; SELECT 2");
    }

    @Test
    void numberedParametersBecomePositionalOnes() {
        Placeholders p = Placeholders.rewrite("SELECT * FROM t WHERE a = $2 OR b = $1 OR c = $2 OR d = '$3'");
        assertThat(p.sql()).isEqualTo("SELECT * FROM t WHERE a = ? OR b = ? OR c = ? OR d = '$3'");
        assertThat(p.order()).isEqualTo(List.of(2, 1, 2));
        assertThat(p.count()).isEqualTo(2);
        assertThat(Placeholders.rewrite("SELECT $$ $1 $$").order()).isEmpty();
        assertThatThrownBy(() -> Placeholders.rewrite("SELECT $0")).hasMessageContaining("no parameter $0");
        assertThatThrownBy(() -> Placeholders.rewrite("SELECT $99999999999")).hasMessageContaining("$99999999999");
    }

    @Test
    void recognizesWhatThePostgresLayerAnswers() {
        assertThat(LocalStatements.recognize("SET application_name = 'x'"))
                .contains(new LocalStatement.SetParameter("application_name", "x"));
        assertThat(LocalStatements.recognize("set session DateStyle to ISO"))
                .contains(new LocalStatement.SetParameter("datestyle", "ISO"));
        assertThat(LocalStatements.recognize("SET TIME ZONE 'UTC';"))
                .contains(new LocalStatement.SetParameter("timezone", "UTC"));
        assertThat(LocalStatements.recognize("SHOW TRANSACTION ISOLATION LEVEL"))
                .contains(new LocalStatement.ShowParameter("transaction_isolation"));
        assertThat(LocalStatements.recognize("start transaction read only")).contains(new LocalStatement.Begin());
        assertThat(LocalStatements.recognize("END")).contains(new LocalStatement.End(true));
        assertThat(LocalStatements.recognize("ROLLBACK")).contains(new LocalStatement.End(false));
        // Session functions and the system catalogs are the SQL engine's to answer.
        assertThat(LocalStatements.recognize("SELECT version()")).isEmpty();
        assertThat(LocalStatements.recognize("select current_schema()")).isEmpty();
        assertThat(LocalStatements.recognize("ROLLBACK TO SAVEPOINT s"))
                .contains(new LocalStatement.Savepoint(LocalStatement.Savepoint.Action.ROLLBACK_TO));
        assertThat(LocalStatements.recognize("savepoint pgsql_psql"))
                .contains(new LocalStatement.Savepoint(LocalStatement.Savepoint.Action.SAVE));
        assertThat(LocalStatements.recognize("RELEASE sa_savepoint_1"))
                .contains(new LocalStatement.Savepoint(LocalStatement.Savepoint.Action.RELEASE));
        assertThat(LocalStatements.recognize("LISTEN events")).get().isInstanceOf(LocalStatement.Unsupported.class);
        assertThat(LocalStatements.recognize("SELECT relname FROM pg_catalog.pg_class")).isEmpty();
        assertThat(LocalStatements.recognize("SELECT 1")).isEmpty();
        assertThat(LocalStatements.recognize("SELECT setting FROM shop.settings")).isEmpty();
    }

    @Test
    void commandTagsAreThoseOfPostgres() {
        assertThat(CommandTags.updated("insert into t values (1)", 3)).isEqualTo("INSERT 0 3");
        assertThat(CommandTags.updated("UPDATE t SET a = 1", 2)).isEqualTo("UPDATE 2");
        assertThat(CommandTags.updated("DELETE FROM t", 0)).isEqualTo("DELETE 0");
        assertThat(CommandTags.updated("CREATE TABLE IF NOT EXISTS d.t (id INT)", 0)).isEqualTo("CREATE TABLE");
        assertThat(CommandTags.updated("-- why\ndrop database d", 0)).isEqualTo("DROP DATABASE");
        assertThat(CommandTags.rows(5)).isEqualTo("SELECT 5");
    }
}
