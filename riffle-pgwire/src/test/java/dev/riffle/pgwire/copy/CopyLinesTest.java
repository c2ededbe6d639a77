package dev.riffle.pgwire.copy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import dev.riffle.pgwire.types.RowBytes;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** COPY lines written and read back as PostgreSQL writes and reads them, in text and CSV. */
class CopyLinesTest {
    private static final CopyOptions TEXT = CopyOptions.defaults(CopyOptions.Format.TEXT);
    private static final CopyOptions CSV = CopyOptions.defaults(CopyOptions.Format.CSV);

    private static List<Optional<String>> cells(String... values) {
        return Arrays.stream(values).map(Optional::ofNullable).toList();
    }

    private static List<CopyLineReader.Row> read(String data, CopyOptions options) {
        CopyLineReader reader = new CopyLineReader(data, options);
        List<CopyLineReader.Row> rows = new ArrayList<>();
        while (reader.hasNext()) {
            rows.add(reader.next());
        }
        return rows;
    }

    @Test
    void textEscapesControlCharactersAndBackslashesAndWritesNullAsBackslashN() {
        CopyLineWriter writer = new CopyLineWriter(TEXT);
        assertThat(writer.line(cells("a\tb", null, "back\\slash", "two\nlines\r", ""))).isEqualTo(
                "a\\tb\t\\N\tback\\\\slash\ttwo\\nlines\\r\t\n");
    }

    @Test
    void csvQuotesWhatNeedsQuotesAndWritesNullAsNothing() {
        CopyLineWriter writer = new CopyLineWriter(CSV);
        assertThat(writer.line(cells("plain", "a,b", "say \"hi\"", "two\nlines", "", null, "\\.")))
                .isEqualTo("plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"\",,\"\\.\"\n");
        assertThat(new CopyLineWriter(CSV.withHeader(true)).header(List.of("id", "a,b"))).isEqualTo("id,\"a,b\"\n");
    }

    @Test
    void numbersAreQuotedOnlyWhereTheOptionsMakeThemAmbiguous() {
        assertThat(numberCell(CSV, "-1.5e+20")).isEqualTo("-1.5e+20");
        assertThat(numberCell(new CopyOptions(CopyOptions.Format.CSV, false, '-', "", '"', '"'), "-5")).isEqualTo("\"-5\"");
        assertThat(numberCell(new CopyOptions(CopyOptions.Format.CSV, false, ',', "0", '"', '"'), "0")).isEqualTo("\"0\"");
        assertThat(numberCell(new CopyOptions(CopyOptions.Format.TEXT, false, '-', "\\N", '"', '"'), "-5"))
                .isEqualTo("\\-5");
    }

    private static String numberCell(CopyOptions options, String text) {
        RowBytes line = new RowBytes();
        line.writeAscii(text);
        new CopyLineWriter(options).endCell(line, 0, true);
        return new String(line.array(), 0, line.length(), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void textReadsBackWhatItWrites() {
        List<Optional<String>> row = cells("a\tb", null, "back\\slash", "two\nlines\r", "", "N");
        String line = new CopyLineWriter(TEXT).line(row);
        List<CopyLineReader.Row> rows = read(line + line, TEXT);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).fields()).isEqualTo(row);
        assertThat(rows.get(1).line()).isEqualTo(2);
        // Octal and hex escapes, CRLF line ends, and the end marker.
        assertThat(read("\\101\\x42c\r\n\\.\nignored\n", TEXT)).singleElement()
                .satisfies(r -> assertThat(r.fields()).isEqualTo(cells("ABc")));
    }

    @Test
    void csvReadsQuotedFieldsAcrossLinesSkipsTheHeaderAndCountsLines() {
        List<CopyLineReader.Row> rows = read("id,name\n1,\"two\nlines\"\n2,\n3,\"\"\n4,\"a \"\"q\"\" b\"\n",
                CSV.withHeader(true));
        assertThat(rows).extracting(CopyLineReader.Row::line).containsExactly(2L, 4L, 5L, 6L);
        assertThat(rows).extracting(CopyLineReader.Row::fields).containsExactly(cells("1", "two\nlines"),
                cells("2", null), cells("3", ""), cells("4", "a \"q\" b"));
    }

    @Test
    void anUnterminatedQuoteIsABadCopyFormatNamingWhereItOpened() {
        assertThatThrownBy(() -> read("1,ok\n2,\"open\n3,x\n", CSV)).isInstanceOf(CopyFormatException.class)
                .hasMessageContaining("unterminated CSV quoted field").hasMessageContaining("line 2");
    }
}
