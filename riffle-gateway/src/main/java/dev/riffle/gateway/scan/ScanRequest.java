package dev.riffle.gateway.scan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.read.StoppingOffsets;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Json;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The body of {@code POST .../scan}:
 *
 * <pre>
 * {"columns": ["id", "amount"],              // default: every column
 *  "from": "earliest" | {"timestamp": ms or ISO instant} | {"offsets": {"0": 120}},
 *  "until": "latest" | {"timestamp": ...} | {"offsets": {...}},
 *  "filter": {"column": "amount", "op": ">", "value": 10},
 *  "limit": 1000, "changelog": false, "partitions": ["2024-06-01"], "buckets": [0, 1],
 *  "source": "union" | "log" | "lake"}       // default: union for datalake-enabled tables, else log
 * </pre>
 *
 * @param logFields the log-range fields the request gave ({@code from}, {@code until},
 *     {@code changelog}, {@code partitions}, {@code buckets}): only a log scan takes them
 */
record ScanRequest(Optional<List<String>> columns, StartingOffsets from, StoppingOffsets until,
        Optional<JsonNode> filter, OptionalLong limit, boolean changelog, List<String> partitions,
        List<Integer> buckets, Optional<ScanSource> source, List<String> logFields) {
    private static final String WHAT = "the scan request";
    private static final Set<String> FIELDS = Set.of("columns", "from", "until", "filter", "limit", "changelog",
            "partitions", "buckets", "source");
    private static final List<String> LOG_FIELDS = List.of("from", "until", "changelog", "partitions", "buckets");

    static ScanRequest parse(JsonNode body) {
        Json.requireObject(body, "The scan request");
        Json.onlyFields(body, WHAT, FIELDS);
        Optional<List<String>> columns = body.hasNonNull("columns")
                ? Optional.of(Json.stringList(body, "columns", WHAT))
                : Optional.empty();
        Optional<JsonNode> filter = Optional.ofNullable(body.get("filter")).filter(f -> !f.isNull());
        OptionalLong limit = Json.optionalLong(body, "limit", WHAT, 0).map(OptionalLong::of).orElse(OptionalLong.empty());
        List<Integer> buckets = new ArrayList<>();
        JsonNode bucketList = body.get("buckets");
        if (bucketList != null && !bucketList.isNull()) {
            if (!bucketList.isArray()) {
                throw ApiException.badRequest("invalid_request", "Field 'buckets' must be an array of bucket numbers");
            }
            for (JsonNode bucket : bucketList) {
                if (!bucket.isInt() || bucket.asInt() < 0) {
                    throw ApiException.badRequest("invalid_request", "Field 'buckets' must hold bucket numbers >= 0, got "
                            + Json.describe(bucket));
                }
                buckets.add(bucket.asInt());
            }
        }
        boolean changelog = Json.optionalBoolean(body, "changelog", WHAT, false);
        List<String> partitions = Json.stringList(body, "partitions", WHAT);
        List<String> logFields = new ArrayList<>();
        for (String field : LOG_FIELDS) {
            JsonNode value = body.get(field);
            boolean given = switch (field) {
                case "changelog" -> changelog;
                case "partitions" -> !partitions.isEmpty();
                case "buckets" -> !buckets.isEmpty();
                default -> value != null && !value.isNull();
            };
            if (given) {
                logFields.add(field);
            }
        }
        return new ScanRequest(columns, from(body.get("from")), until(body.get("until")), filter, limit, changelog,
                partitions, buckets, source(body.get("source")), List.copyOf(logFields));
    }

    private static Optional<ScanSource> source(JsonNode source) {
        if (source == null || source.isNull()) {
            return Optional.empty();
        }
        if (source.isTextual()) {
            for (ScanSource candidate : ScanSource.values()) {
                if (candidate.label().equals(source.asText())) {
                    return Optional.of(candidate);
                }
            }
        }
        throw ApiException.badRequest("invalid_request", "'source' must be \"union\", \"log\", \"lake\" or \"current\", got "
                + Json.describe(source));
    }

    private static StartingOffsets from(JsonNode from) {
        if (from == null || from.isNull() || (from.isTextual() && from.asText().equals("earliest"))) {
            return StartingOffsets.earliest();
        }
        if (from.isObject() && from.has("offsets")) {
            Json.onlyFields(from, "'from'", Set.of("offsets"));
            return StartingOffsets.explicit(BucketKeys.parseOffsets(from.get("offsets"), "from.offsets"));
        }
        if (from.isObject() && from.has("timestamp")) {
            Json.onlyFields(from, "'from'", Set.of("timestamp"));
            return StartingOffsets.timestamp(epochMillis(from.get("timestamp"), "from.timestamp"));
        }
        throw ApiException.badRequest("invalid_request", "'from' must be \"earliest\", {\"timestamp\": ..} or "
                + "{\"offsets\": {..}}, got " + Json.describe(from));
    }

    private static StoppingOffsets until(JsonNode until) {
        if (until == null || until.isNull() || (until.isTextual() && until.asText().equals("latest"))) {
            return StoppingOffsets.latest();
        }
        if (until.isObject() && until.has("offsets")) {
            Json.onlyFields(until, "'until'", Set.of("offsets"));
            return StoppingOffsets.explicit(BucketKeys.parseOffsets(until.get("offsets"), "until.offsets"));
        }
        if (until.isObject() && until.has("timestamp")) {
            Json.onlyFields(until, "'until'", Set.of("timestamp"));
            return StoppingOffsets.timestamp(epochMillis(until.get("timestamp"), "until.timestamp"));
        }
        throw ApiException.badRequest("invalid_request", "'until' must be \"latest\", {\"timestamp\": ..} or "
                + "{\"offsets\": {..}}, got " + Json.describe(until));
    }

    private static long epochMillis(JsonNode value, String field) {
        if (value.isIntegralNumber() && value.canConvertToLong()) {
            return value.asLong();
        }
        if (value.isTextual()) {
            try {
                return Instant.parse(value.asText()).toEpochMilli();
            } catch (DateTimeException e) {
                // fall through to the error below
            }
        }
        throw ApiException.badRequest("invalid_request", field + " must be epoch milliseconds or an ISO instant like "
                + "2024-06-01T00:00:00Z, got " + Json.describe(value));
    }
}
