package dev.riffle.flight.statement;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.core.read.BucketRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The part of a table scan one Flight endpoint reads: some of the table's buckets, each up to the
 * stop offset the whole scan captured when its FlightInfo was made, so that the endpoints together
 * read every row once, whichever instances serve them and whenever.
 *
 * <pre>{@code
 * List<ScanPart> parts = ScanPart.split(stopOffsets, 4); // up to 4 parts, buckets dealt round-robin
 * }</pre>
 *
 * @param stops the buckets of this part and where each stops (exclusive)
 */
public record ScanPart(Map<BucketRef, Long> stops) {

    public ScanPart {
        stops = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(stops, "stops is null")));
    }

    /** {@code stops} dealt into at most {@code maxParts} parts of about the same number of buckets. */
    public static List<ScanPart> split(Map<BucketRef, Long> stops, int maxParts) {
        int parts = Math.max(1, Math.min(maxParts, stops.size()));
        List<Map<BucketRef, Long>> dealt = new ArrayList<>();
        for (int i = 0; i < parts; i++) {
            dealt.add(new LinkedHashMap<>());
        }
        int i = 0;
        for (Map.Entry<BucketRef, Long> stop : stops.entrySet()) {
            dealt.get(i++ % parts).put(stop.getKey(), stop.getValue());
        }
        return dealt.stream().map(ScanPart::new).toList();
    }

    JsonNode toJson(ObjectMapper json) {
        ObjectNode node = json.createObjectNode();
        ArrayNode list = node.putArray("buckets");
        stops.forEach((bucket, stop) -> {
            ObjectNode b = list.addObject();
            bucket.partition().ifPresent(p -> b.put("p", p));
            b.put("b", bucket.bucket());
            b.put("s", stop);
        });
        return node;
    }

    static ScanPart fromJson(JsonNode node) {
        Map<BucketRef, Long> stops = new LinkedHashMap<>();
        for (JsonNode b : node.path("buckets")) {
            Optional<String> partition = b.hasNonNull("p") ? Optional.of(b.get("p").asText()) : Optional.empty();
            stops.put(new BucketRef(partition, b.path("b").asInt()), b.path("s").asLong());
        }
        return new ScanPart(stops);
    }
}
