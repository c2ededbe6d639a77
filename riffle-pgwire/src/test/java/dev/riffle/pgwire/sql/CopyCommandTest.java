package dev.riffle.pgwire.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.pgwire.copy.CopyOptions;
import dev.riffle.pgwire.error.PgException;
import org.junit.jupiter.api.Test;

/** The COPY statements psql's \copy, pgjdbc's CopyManager and users send. */
class CopyCommandTest {

    @Test
    void aQueryToStdoutKeepsTheQueryAsWritten() {
        CopyCommand copy = CopyCommand.parse("COPY (SELECT id, ')' AS p FROM shop.t WHERE (id > 1)) TO STDOUT");
        assertThat(copy.in()).isFalse();
        assertThat(copy.source()).isEqualTo(new CopyCommand.Source.Query("SELECT id, ')' AS p FROM shop.t WHERE (id > 1)"));
        assertThat(copy.options()).isEqualTo(CopyOptions.defaults(CopyOptions.Format.TEXT));
    }

    @Test
    void aTableWithColumnsAndTheCurrentOptionSpelling() {
        CopyCommand copy = CopyCommand.parse("copy shop.\"Orders\" (id, \"Total\") to stdout with (format csv,"
                + " header true, delimiter ';', null 'NULL');");
        CopyCommand.Source.Table table = (CopyCommand.Source.Table) copy.source();
        assertThat(table.selectSql()).isEqualTo("SELECT id, \"Total\" FROM shop.\"Orders\"");
        assertThat(copy.options()).isEqualTo(new CopyOptions(CopyOptions.Format.CSV, true, ';', "NULL", '"', '"'));
    }

    @Test
    void theOldSpellingPsqlsBackslashCopyPassesOn() {
        CopyCommand copy = CopyCommand.parse("COPY  shop.items FROM STDIN csv header DELIMITER AS E'\\t'");
        assertThat(copy.in()).isTrue();
        assertThat(copy.options().format()).isEqualTo(CopyOptions.Format.CSV);
        assertThat(copy.options().header()).isTrue();
        assertThat(copy.options().delimiter()).isEqualTo('\t');
    }

    @Test
    void whatRiffleDoesNotServeIsRefusedClearly() {
        assertThatThrownBy(() -> CopyCommand.parse("COPY shop.t TO '/tmp/x'")).isInstanceOf(PgException.class)
                .hasMessageContaining("file or program on the server")
                .satisfies(e -> assertThat(((PgException) e).sqlState()).isEqualTo("0A000"));
        assertThatThrownBy(() -> CopyCommand.parse("COPY shop.t FROM STDIN (FORMAT binary)"))
                .hasMessageContaining("binary");
        assertThatThrownBy(() -> CopyCommand.parse("COPY t FROM STDIN"))
                .hasMessageContaining("schema-qualified");
        assertThatThrownBy(() -> CopyCommand.parse("COPY shop.t SIDEWAYS STDIN"))
                .satisfies(e -> assertThat(((PgException) e).sqlState()).isEqualTo("42601"))
                .hasMessageContaining("\"SIDEWAYS\"");
    }
}
