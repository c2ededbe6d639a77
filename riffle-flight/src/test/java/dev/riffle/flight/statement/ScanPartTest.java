package dev.riffle.flight.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.riffle.core.read.BucketRef;
import dev.riffle.sql.statement.BucketOffsets;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A scan cut into endpoint parts: each part carries where its buckets start and stop, through the ticket. */
class ScanPartTest {
    private static final BucketRef B0 = BucketRef.of(0);
    private static final BucketRef B1 = BucketRef.of(1);
    private static final BucketRef B2 = BucketRef.of(2);

    @Test
    void partsDealTheBucketsWithTheirStartsAndStops() {
        BucketOffsets whole = new BucketOffsets(ordered(B0, 5L, B1, 0L, B2, 7L), ordered(B0, 100L, B1, 90L, B2, 80L));

        List<ScanPart> parts = ScanPart.split(whole, 2);

        assertThat(parts).extracting(ScanPart::offsets).containsExactly(
                new BucketOffsets(ordered(B0, 5L, B2, 7L), ordered(B0, 100L, B2, 80L)),
                new BucketOffsets(Map.of(B1, 0L), Map.of(B1, 90L)));
    }

    @Test
    void aTicketCarriesThePartsOffsetsAndOneWithoutStartsStillReads() {
        TicketSigner signer = TicketSigner.withKey("a ticket key of sixteen bytes or more".getBytes(StandardCharsets.UTF_8));
        ScanPart part = new ScanPart(new BucketOffsets(Map.of(BucketRef.of("2024", 3), 11L),
                Map.of(BucketRef.of("2024", 3), 42L)));
        QueryTicket ticket = new QueryTicket("ann", "SELECT * FROM db.t", List.of(), Optional.of(part));

        assertThat(QueryTicket.decode(ticket.encode(signer), signer).part()).contains(part);
        // A ticket made before starts were carried: its part starts where the read starts.
        ScanPart stopsOnly = ScanPart.fromJson(new ObjectMapper().createObjectNode()
                .set("buckets", new ObjectMapper().createArrayNode().add(new ObjectMapper().createObjectNode()
                        .put("b", 1).put("s", 42L))));
        assertThat(stopsOnly.offsets()).isEqualTo(new BucketOffsets(Map.of(), Map.of(B1, 42L)));
    }

    @Test
    void startsMustCoverEveryBucketOrNone() {
        assertThatThrownBy(() -> new BucketOffsets(Map.of(B0, 1L), Map.of(B0, 5L, B1, 5L)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("for every bucket or for none");
    }

    private static Map<BucketRef, Long> ordered(Object... pairs) {
        Map<BucketRef, Long> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((BucketRef) pairs[i], (Long) pairs[i + 1]);
        }
        return map;
    }
}
