package dev.riffle.pgwire.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.pgwire.session.PgException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** psql's and LIKE's name patterns match as they do in PostgreSQL, in bounded time. */
class NamePatternTest {

    @Test
    void psqlWildcardsMatchAsInPostgres() {
        // \dt items, \dt it*, \dt i?ems, \dt "it.ms", \dt "Items", \dt a$b (psql always escapes $).
        assertThat(NamePattern.fromPsqlRegex("^(items)$").matches("items")).isTrue();
        assertThat(NamePattern.fromPsqlRegex("^(items)$").matches("items2")).isFalse();
        assertThat(NamePattern.fromPsqlRegex("^(items)$").matches("Items")).isFalse();
        assertThat(NamePattern.fromPsqlRegex("^(it.*)$").matches("items")).isTrue();
        assertThat(NamePattern.fromPsqlRegex("^(it.*)$").matches("it")).isTrue();
        assertThat(NamePattern.fromPsqlRegex("^(it.*)$").matches("xitems")).isFalse();
        assertThat(NamePattern.fromPsqlRegex("^(i.ems)$").matches("items")).isTrue();
        assertThat(NamePattern.fromPsqlRegex("^(i.ems)$").matches("iems")).isFalse();
        assertThat(NamePattern.fromPsqlRegex("^(it\\.ms)$").matches("it.ms")).isTrue();
        assertThat(NamePattern.fromPsqlRegex("^(it\\.ms)$").matches("items")).isFalse();
        assertThat(NamePattern.fromPsqlRegex("^(a\\$b)$").matches("a$b")).isTrue();
        assertThat(NamePattern.fromPsqlRegex("^(s.*_.*s)$").matches("sales_sums")).isTrue();
        assertThat(NamePattern.fromPsqlRegex("^(s.*_.*s)$").matches("sales_sum")).isFalse();
        assertThat(NamePattern.fromPsqlRegex("^(s.*_.*s)$").matches("sales")).isFalse();
        assertThat(NamePattern.fromPsqlRegex("^(.*)$").matches("")).isTrue();
        assertThat(NamePattern.fromPsqlRegex("^(caf.)$").matches("café")).isTrue();
    }

    @Test
    void regularExpressionOperatorsArePlainlyRefused() {
        // psql passes what a user types outside quotes on as regular expression: Riffle does not run it.
        for (String regex : new String[] {"^((a+)+b)$", "^(a|b)$", "^([ab]x)$", "^(a{2})$", "^(a?)$", "items",
                "^(a\\)$"}) {
            assertThatThrownBy(() -> NamePattern.fromPsqlRegex(regex)).as(regex).isInstanceOf(PgException.class)
                    .satisfies(e -> assertThat(((PgException) e).sqlState()).isEqualTo("0A000"))
                    .hasMessageContaining(regex);
        }
        assertThatThrownBy(() -> NamePattern.fromPsqlRegex("^(" + "a".repeat(NamePattern.MAX_LENGTH) + ")$"))
                .isInstanceOf(PgException.class)
                .satisfies(e -> assertThat(((PgException) e).sqlState()).isEqualTo("54000"));
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void manyWildcardsOnALongNameTakeMilliseconds() {
        // As a java.util.regex pattern, (.*a){40}.*b against 300 a's backtracks for longer than anyone waits.
        NamePattern stars = NamePattern.fromPsqlRegex("^(" + ".*a".repeat(40) + ".*b)$");
        NamePattern likeStars = NamePattern.like("%a".repeat(40) + "%b");
        String name = "a".repeat(300);
        long start = System.nanoTime();
        for (int i = 0; i < 100; i++) {
            assertThat(stars.matches(name)).isFalse();
            assertThat(likeStars.matches(name)).isFalse();
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(stars.matches("a".repeat(299) + "b")).isTrue();
    }

    @Test
    void likeAndExactPatterns() {
        assertThat(NamePattern.like("it%").matches("items")).isTrue();
        assertThat(NamePattern.like("%").matches("")).isTrue();
        assertThat(NamePattern.like("i_ems").matches("items")).isTrue();
        assertThat(NamePattern.like("a\\_b").matches("a_b")).isTrue();
        assertThat(NamePattern.like("a\\_b").matches("axb")).isFalse();
        assertThat(NamePattern.like("a.b").matches("axb")).isFalse();
        assertThat(NamePattern.like("a(b)+").matches("a(b)+")).isTrue();
        assertThat(NamePattern.exact("it_ms").matches("it_ms")).isTrue();
        assertThat(NamePattern.exact("it_ms").matches("itxms")).isFalse();
        assertThat(NamePattern.exact("a%").matches("ab")).isFalse();
    }
}
