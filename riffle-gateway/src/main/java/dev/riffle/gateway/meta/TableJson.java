package dev.riffle.gateway.meta;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.core.types.ColumnTypes;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.ValidationException;
import org.apache.fluss.types.DataType;

/**
 * A table as JSON: the create-table body (columns with Fluss type strings, keys, buckets,
 * partitions, properties) into a {@link TableDescriptor}, and a {@link TableInfo} back into the same
 * shape, so what {@code GET} answers can be posted again.
 */
final class TableJson {
    static final Set<String> CREATE_FIELDS = Set.of("name", "columns", "primary_key", "bucket_key", "buckets",
            "partition_keys", "properties", "custom_properties", "comment", "if_not_exists");
    private static final String WHAT = "the table definition";

    private TableJson() {}

    static String name(JsonNode body) {
        return Json.requiredText(body, "name", WHAT);
    }

    static TableDescriptor descriptor(JsonNode body, int maxBuckets) {
        Json.onlyFields(body, WHAT, CREATE_FIELDS);
        Schema.Builder schema = Schema.newBuilder();
        JsonNode columns = body.get("columns");
        if (columns == null || !columns.isArray() || columns.isEmpty()) {
            throw ApiException.badRequest("invalid_request", "Field 'columns' of " + WHAT + " must be a non-empty array of "
                    + "{\"name\": .., \"type\": ..}, got " + Json.describe(columns));
        }
        for (int i = 0; i < columns.size(); i++) {
            JsonNode column = Json.requireObject(columns.get(i), "columns[" + i + "]");
            String what = "columns[" + i + "]";
            Json.onlyFields(column, what, Set.of("name", "type", "comment"));
            String name = Json.requiredText(column, "name", what);
            schema.column(name, parseType(Json.requiredText(column, "type", what), name));
            Json.optionalText(column, "comment", what).ifPresent(schema::withComment);
        }
        List<String> primaryKey = Json.stringList(body, "primary_key", WHAT);
        if (!primaryKey.isEmpty()) {
            schema.primaryKey(primaryKey);
        }
        TableDescriptor.Builder descriptor = TableDescriptor.builder();
        try {
            descriptor.schema(schema.build());
        } catch (ValidationException | IllegalArgumentException | IllegalStateException e) {
            throw ApiException.badRequest("invalid_request", "Invalid schema: " + e.getMessage());
        }
        Optional<Long> buckets = Json.optionalLong(body, "buckets", WHAT, 1);
        if (buckets.isPresent() && buckets.get() > maxBuckets) {
            throw ApiException.badRequest("too_many_buckets", "\"buckets\": " + buckets.get() + " is more than the "
                    + maxBuckets + " buckets per table this gateway allows (Gateway.Builder.maxBuckets)");
        }
        List<String> bucketKey = Json.stringList(body, "bucket_key", WHAT);
        if (buckets.isPresent() || !bucketKey.isEmpty()) {
            descriptor.distributedBy(buckets.map(Long::intValue).orElse(null), bucketKey);
        }
        List<String> partitionKeys = Json.stringList(body, "partition_keys", WHAT);
        if (!partitionKeys.isEmpty()) {
            descriptor.partitionedBy(partitionKeys);
        }
        descriptor.properties(Json.stringMap(body, "properties", WHAT));
        descriptor.customProperties(Json.stringMap(body, "custom_properties", WHAT));
        Json.optionalText(body, "comment", WHAT).ifPresent(descriptor::comment);
        try {
            return descriptor.build();
        } catch (ValidationException | IllegalArgumentException | IllegalStateException e) {
            throw ApiException.badRequest("invalid_request", "Invalid table definition: " + e.getMessage());
        }
    }

    static final Set<String> ALTER_FIELDS = Set.of("add_columns", "set", "reset", "if_exists");
    private static final String ALTER_WHAT = "the table change";

    /**
     * The changes a {@code PATCH} body asks for: {@code add_columns} (as in the create body),
     * {@code set} (an object of options) and {@code reset} (a list of option names).
     */
    static List<TableChange> changes(JsonNode body) {
        Json.onlyFields(body, ALTER_WHAT, ALTER_FIELDS);
        List<TableChange> changes = new ArrayList<>();
        JsonNode columns = body.get("add_columns");
        if (columns != null && !columns.isNull()) {
            if (!columns.isArray()) {
                throw ApiException.badRequest("invalid_request", "Field 'add_columns' of " + ALTER_WHAT
                        + " must be an array of {\"name\": .., \"type\": ..}, got " + Json.describe(columns));
            }
            for (int i = 0; i < columns.size(); i++) {
                String what = "add_columns[" + i + "]";
                JsonNode column = Json.requireObject(columns.get(i), what);
                Json.onlyFields(column, what, Set.of("name", "type", "comment"));
                String name = Json.requiredText(column, "name", what);
                changes.add(TableChange.addColumn(name, parseType(Json.requiredText(column, "type", what), name),
                        Json.optionalText(column, "comment", what).orElse(null), TableChange.ColumnPosition.last()));
            }
        }
        Json.stringMap(body, "set", ALTER_WHAT).forEach((key, value) -> changes.add(TableChange.set(key, value)));
        Json.stringList(body, "reset", ALTER_WHAT).forEach(key -> changes.add(TableChange.reset(key)));
        return changes;
    }

    private static DataType parseType(String type, String column) {
        try {
            return ColumnTypes.parse(column, type);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("invalid_type", e.getMessage());
        }
    }

    static Map<String, Object> describe(TableInfo info) {
        Map<String, Object> table = new LinkedHashMap<>();
        table.put("database", info.getTablePath().getDatabaseName());
        table.put("name", info.getTablePath().getTableName());
        table.put("table_id", info.getTableId());
        table.put("schema_id", info.getSchemaId());
        List<Map<String, Object>> columns = new ArrayList<>();
        for (Schema.Column column : info.getSchema().getColumns()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", column.getName());
            c.put("type", column.getDataType().toString());
            column.getComment().ifPresent(comment -> c.put("comment", comment));
            columns.add(c);
        }
        table.put("columns", columns);
        table.put("primary_key", info.getPrimaryKeys());
        table.put("bucket_key", info.getBucketKeys());
        table.put("buckets", info.getNumBuckets());
        table.put("partition_keys", info.getPartitionKeys());
        table.put("properties", info.getProperties().toMap());
        table.put("custom_properties", info.getCustomProperties().toMap());
        table.put("comment", info.getComment().orElse(null));
        table.put("created_at", Instant.ofEpochMilli(info.getCreatedTime()).toString());
        table.put("modified_at", Instant.ofEpochMilli(info.getModifiedTime()).toString());
        return table;
    }
}
