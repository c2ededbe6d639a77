package dev.riffle.server.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyLookupStatementsTest {

    @Test
    void valuesAsJsonGivesThemBindToTheirKeyTypes() {
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.BIGINT, Types.VARCHAR), List.of(42, "eu"))).isTrue();
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.INTEGER), List.of(9_000_000_000L))).isTrue();
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.DECIMAL), List.of(new BigDecimal("1.50")))).isTrue();
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.BOOLEAN, Types.CHAR), List.of(true, "abc"))).isTrue();
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(), List.of())).isTrue();
    }

    @Test
    void anythingAConnectionWouldConvertOrRefuseIsLeftToIt() {
        // Counts that differ: the connection names the missing or extra parameter.
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.INTEGER), List.of())).isFalse();
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.INTEGER), List.of(1, 2))).isFalse();
        // NULL, text for a number, a number for text, a fraction for an integer.
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.INTEGER), Arrays.asList((Object) null))).isFalse();
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.INTEGER), List.of("1"))).isFalse();
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.VARCHAR), List.of(1))).isFalse();
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.BIGINT), List.of(new BigDecimal("1.5")))).isFalse();
        // Dates and timestamps come as text the connection parses; floating point and binary keys likewise go there.
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.TIMESTAMP), List.of("2024-06-01T12:00:00"))).isFalse();
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.DATE), List.of("2024-06-01"))).isFalse();
        assertThat(KeyLookupStatements.bindAsTheyAre(List.of(Types.DOUBLE), List.of(new BigDecimal("1.5")))).isFalse();
    }
}
