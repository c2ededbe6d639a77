package dev.riffle.flight.statement;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueryTicketTest {
    private final TicketSigner signer = TicketSigner.withKey("a ticket key of sixteen bytes or more".getBytes(
            StandardCharsets.UTF_8));

    @Test
    void twoExecutionsOfOneQueryHaveTicketsOfTheirOwn() {
        QueryTicket first = new QueryTicket("ann", "SELECT owner FROM db.t WHERE id = ?", List.of(7L), Optional.empty());
        QueryTicket second = new QueryTicket("ann", "SELECT owner FROM db.t WHERE id = ?", List.of(7L), Optional.empty());
        byte[] firstTicket = first.encode(signer);

        assertThat(firstTicket).isNotEqualTo(second.encode(signer));
        QueryTicket read = QueryTicket.decode(firstTicket, signer);
        assertThat(read).isEqualTo(first);
        assertThat(read.execution()).isEqualTo(first.execution()).isNotEqualTo(second.execution());
    }
}
