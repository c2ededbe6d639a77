package dev.riffle.flight.statement;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.core.read.BucketRef;
import dev.riffle.sql.statement.BucketOffsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The part of a table scan one Flight endpoint reads: some of the table's buckets, each between
 * the start and stop offsets the whole scan captured when its FlightInfo was made, so that the
 * endpoints together read every row once, whichever instances serve them and whenever, and no
 * DoGet asks Fluss for offsets again.
 *
 * <pre>{@code
 * List<ScanPart> parts = ScanPart.split(offsets, 4); // up to 4 parts, buckets dealt round-robin
 * }</pre>
 *
 * @param offsets the buckets of this part and where each starts and stops (a ticket made before
 *     starts were carried has stops only: such a part starts where its read would start)
 */
public record ScanPart(BucketOffsets offsets) {

    public ScanPart {
        requireNonNull(offsets, "offsets is null");
    }

    /** {@code offsets} dealt into at most {@code maxParts} parts of about the same number of buckets. */
    public static List<ScanPart> split(BucketOffsets offsets, int maxParts) {
        int parts = Math.max(1, Math.min(maxParts, offsets.stops().size()));
        List<Map<BucketRef, Long>> starts = new ArrayList<>();
        List<Map<BucketRef, Long>> stops = new ArrayList<>();
        for (int i = 0; i < parts; i++) {
            starts.add(new LinkedHashMap<>());
            stops.add(new LinkedHashMap<>());
        }
        int i = 0;
        for (Map.Entry<BucketRef, Long> stop : offsets.stops().entrySet()) {
            int part = i++ % parts;
            stops.get(part).put(stop.getKey(), stop.getValue());
            Long start = offsets.starts().get(stop.getKey());
            if (start != null) {
                starts.get(part).put(stop.getKey(), start);
            }
        }
        List<ScanPart> dealt = new ArrayList<>();
        for (int part = 0; part < parts; part++) {
            dealt.add(new ScanPart(new BucketOffsets(starts.get(part), stops.get(part))));
        }
        return dealt;
    }

    JsonNode toJson(ObjectMapper json) {
        ObjectNode node = json.createObjectNode();
        ArrayNode list = node.putArray("buckets");
        offsets.stops().forEach((bucket, stop) -> {
            ObjectNode b = list.addObject();
            bucket.partition().ifPresent(p -> b.put("p", p));
            b.put("b", bucket.bucket());
            Long start = offsets.starts().get(bucket);
            if (start != null) {
                b.put("f", start);
            }
            b.put("s", stop);
        });
        return node;
    }

    static ScanPart fromJson(JsonNode node) {
        Map<BucketRef, Long> starts = new LinkedHashMap<>();
        Map<BucketRef, Long> stops = new LinkedHashMap<>();
        for (JsonNode b : node.path("buckets")) {
            Optional<String> partition = b.hasNonNull("p") ? Optional.of(b.get("p").asText()) : Optional.empty();
            BucketRef bucket = new BucketRef(partition, b.path("b").asInt());
            if (b.hasNonNull("f")) {
                starts.put(bucket, b.get("f").asLong());
            }
            stops.put(bucket, b.path("s").asLong());
        }
        return new ScanPart(new BucketOffsets(starts, stops));
    }
}
