package dev.riffle.gateway.scan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.core.read.BucketRef;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Buckets as they appear in JSON offset maps: {@code "3"} for bucket 3, {@code "2024-06-01/3"}
 * for bucket 3 of partition 2024-06-01 (the part after the last {@code /} is the bucket).
 */
final class BucketKeys {
    private BucketKeys() {}

    static String key(BucketRef ref) {
        return ref.toString();
    }

    static BucketRef parse(String key, String field) {
        int slash = key.lastIndexOf('/');
        String bucket = slash < 0 ? key : key.substring(slash + 1);
        int number;
        try {
            number = Integer.parseInt(bucket);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid_request", "'" + key + "' in " + field + " is not a bucket: use \"3\" "
                    + "for bucket 3, or \"PARTITION/3\" in a partitioned table");
        }
        if (number < 0) {
            throw ApiException.badRequest("invalid_request", "Bucket " + number + " in " + field + " is negative");
        }
        return slash < 0 ? BucketRef.of(number) : BucketRef.of(key.substring(0, slash), number);
    }

    /** An offsets object {@code {"0": 120, "1": 98}}. */
    static Map<BucketRef, Long> parseOffsets(JsonNode offsets, String field) {
        if (offsets == null || !offsets.isObject()) {
            throw ApiException.badRequest("invalid_request", field + " must be an object of bucket offsets like "
                    + "{\"0\": 120, \"1\": 98}, got " + Json.describe(offsets));
        }
        Map<BucketRef, Long> result = new LinkedHashMap<>();
        offsets.fields().forEachRemaining(entry -> {
            JsonNode offset = entry.getValue();
            if (!offset.isIntegralNumber() || !offset.canConvertToLong() || offset.asLong() < 0) {
                throw ApiException.badRequest("invalid_request", "Offset of bucket '" + entry.getKey() + "' in " + field
                        + " must be a whole number >= 0, got " + Json.describe(offset));
            }
            result.put(parse(entry.getKey(), field), offset.asLong());
        });
        return result;
    }
}
