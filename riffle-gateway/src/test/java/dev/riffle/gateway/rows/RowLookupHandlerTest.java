package dev.riffle.gateway.rows;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/** Which paths the Jetty fast path answers itself; everything else is Javalin's. */
class RowLookupHandlerTest {
    @Test
    void takesOnlyPlainPointLookupPaths() {
        assertThat(RowLookupHandler.parse("/v1/databases/shop/tables/orders/rows/42"))
                .contains(new RowLookupHandler.RowAddress(TablePath.of("shop", "orders"), "42"));
        assertThat(RowLookupHandler.parse("/v1/databases/shop/tables/orders/rows/-7"))
                .contains(new RowLookupHandler.RowAddress(TablePath.of("shop", "orders"), "-7"));
        // escapes are decoded by Javalin, exactly as for every other route
        assertThat(RowLookupHandler.parse("/v1/databases/shop/tables/orders/rows/a%2Fb")).isEmpty();
        assertThat(RowLookupHandler.parse("/v1/databases/shop/tables/orders/rows/a+b")).isEmpty();
        assertThat(RowLookupHandler.parse("/v1/databases/shop/tables/orders/rows/")).isEmpty();
        assertThat(RowLookupHandler.parse("/v1/databases/shop/tables/orders/rows")).isEmpty();
        assertThat(RowLookupHandler.parse("/v1/databases/shop/tables/orders/rows/1/2")).isEmpty();
        assertThat(RowLookupHandler.parse("/v1/databases/shop/tables/orders/lookup")).isEmpty();
        assertThat(RowLookupHandler.parse("/v1/databases/shop/views/orders/rows/1")).isEmpty();
        assertThat(RowLookupHandler.parse("/v1/databases//tables/orders/rows/1")).isEmpty();
        assertThat(RowLookupHandler.parse("/v2/databases/shop/tables/orders/rows/1")).isEmpty();
    }
}
