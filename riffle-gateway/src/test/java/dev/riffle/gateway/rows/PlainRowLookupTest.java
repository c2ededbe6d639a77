package dev.riffle.gateway.rows;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.gateway.http.MediaTypes;
import java.util.Optional;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/** Which request targets the plain lookup answers itself; every other form is the Javalin route's. */
class PlainRowLookupTest {
    @Test
    void takesOnlyPlainPointLookupTargets() {
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows/42"))
                .contains(new PlainRowLookup.RowAddress(TablePath.of("shop", "orders"), "42"));
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows/-7"))
                .contains(new PlainRowLookup.RowAddress(TablePath.of("shop", "orders"), "-7"));
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows/2026-12-05T10:00:00"))
                .contains(new PlainRowLookup.RowAddress(TablePath.of("shop", "orders"), "2026-12-05T10:00:00"));
        // escapes, '+' and ';' parameters are decoded by Javalin, exactly as for every other route
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows/a%2Fb")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows/a+b")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows/1;v=2")).isEmpty();
        // a query (a composite key's other columns) and fragments are the route's too
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows/1?region=eu")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows/1#x")).isEmpty();
        // dot segments are normalized by Jetty before any route sees them
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows/..")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/./rows/1")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows/")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/rows/1/2")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/tables/orders/lookup")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("/v1/databases/shop/views/orders/rows/1")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("/v1/databases//tables/orders/rows/1")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("/v2/databases/shop/tables/orders/rows/1")).isEmpty();
        assertThat(PlainRowLookup.parseTarget("http://host/v1/databases/shop/tables/orders/rows/1")).isEmpty();
    }

    @Test
    void takesJsonOrAnyAnswer() {
        assertThat(MediaTypes.plainlyAcceptsJson(Optional.empty())).isTrue();
        assertThat(MediaTypes.plainlyAcceptsJson(Optional.of("application/json"))).isTrue();
        assertThat(MediaTypes.plainlyAcceptsJson(Optional.of("*/*"))).isTrue();
        assertThat(MediaTypes.plainlyAcceptsJson(Optional.of("application/vnd.apache.arrow.stream"))).isFalse();
        assertThat(MediaTypes.plainlyAcceptsJson(Optional.of("application/json, text/plain"))).isFalse();
    }
}
