package dev.riffle.mcp.rows;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TextTableTest {
    @Test
    void alignsColumnsShowsNullAndCountsRows() {
        CappedRows.Collector rows = new CappedRows.Collector(List.of("id", "name"), 10, 1024);
        rows.add(List.of(Optional.of("1"), Optional.of("ada")), () -> Map.of("id", 1, "name", "ada"));
        rows.add(List.of(Optional.of("22"), Optional.empty()), () -> Map.of("id", 22));
        assertThat(TextTable.render(rows.done())).isEqualTo("""
                 id | name
                ----+------
                 1  | ada
                 22 | NULL
                (2 rows)""");
    }

    @Test
    void keepsEachRowOnOneLine() {
        CappedRows.Collector rows = new CappedRows.Collector(List.of("text"), 10, 1024);
        rows.add(List.of(Optional.of("two\nlines")), Map::of);
        assertThat(TextTable.render(rows.done())).isEqualTo("""
                 text
                ------------
                 two\\nlines
                (1 row)""");
    }

    @Test
    void theRowCapStopsTakingAndSaysSo() {
        CappedRows.Collector rows = new CappedRows.Collector(List.of("id"), 2, 1024);
        assertThat(rows.add(List.of(Optional.of("1")), Map::of)).isTrue();
        assertThat(rows.add(List.of(Optional.of("2")), Map::of)).isTrue();
        assertThat(rows.add(List.of(Optional.of("3")), Map::of)).isFalse();
        CappedRows kept = rows.done();
        assertThat(kept.size()).isEqualTo(2);
        assertThat(kept.cut()).contains("the row limit of 2: more rows follow");
        assertThat(TextTable.render(kept)).endsWith("(2 rows)\nCut at the row limit of 2: more rows follow.");
    }

    @Test
    void theByteCapCountsTheTextOfEveryCell() {
        // The header takes 2 + 3 bytes; each row 1 + 3 + its cell's bytes.
        CappedRows.Collector rows = new CappedRows.Collector(List.of("id"), 100, 5 + 2 * 14);
        String tenBytes = "0123456789";
        assertThat(rows.add(List.of(Optional.of(tenBytes)), Map::of)).isTrue();
        assertThat(rows.add(List.of(Optional.of(tenBytes)), Map::of)).isTrue();
        assertThat(rows.add(List.of(Optional.of("x")), Map::of)).isFalse();
        assertThat(rows.done().cut()).contains("the byte cap of 33 bytes of text: 2 rows are shown, more follow");
        assertThat(rows.add(List.of(Optional.of("")), Map::of)).as("nothing is taken after a cut").isFalse();
    }
}
