package dev.riffle.flight.metadata;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.server.session.RequestContext;
import dev.riffle.sql.types.SqlTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.arrow.flight.sql.FlightSqlColumnMetadata;
import org.apache.arrow.flight.sql.FlightSqlProducer.Schemas;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;

/**
 * Flight SQL's catalog answers, from the live Fluss metadata of the caller's session: a Fluss
 * database is a schema, its tables are tables, and there is no catalog level (every catalog
 * column is null, GetCatalogs answers none), as in every Riffle surface. Names are matched with
 * SQL LIKE patterns ({@code %}, {@code _}, {@code \} escapes), case-sensitively like Fluss names.
 * Tables carry their Arrow schema with the column metadata JDBC clients read ({@code getColumns}).
 *
 * <pre>{@code
 * try (VectorSchemaRoot tables = CatalogMetadata.tables(request, Optional.of("shop"), Optional.empty(), List.of(), true)) { ... }
 * }</pre>
 */
public final class CatalogMetadata {
    /** The one table type; the {@code t$log}, {@code t$lake} and {@code t$changelog} views are queryable but not listed. */
    public static final String TABLE = "TABLE";

    private CatalogMetadata() {}

    public static VectorSchemaRoot catalogs(BufferAllocator allocator) {
        return MetadataRows.of(Schemas.GET_CATALOGS_SCHEMA, List.of(), allocator);
    }

    public static VectorSchemaRoot tableTypes(BufferAllocator allocator) {
        return MetadataRows.of(Schemas.GET_TABLE_TYPES_SCHEMA, List.<Object[]>of(new Object[] {TABLE}), allocator);
    }

    public static VectorSchemaRoot schemas(RequestContext request, Optional<String> catalog, Optional<String> pattern) {
        List<Object[]> rows = new ArrayList<>();
        if (noCatalog(catalog)) {
            Pattern like = like(pattern);
            for (String database : sorted(request.await(request.admin().listDatabases(), "Listing databases"))) {
                if (like.matcher(database).matches()) {
                    rows.add(new Object[] {null, database});
                }
            }
        }
        return MetadataRows.of(Schemas.GET_SCHEMAS_SCHEMA, rows, request.allocator());
    }

    public static VectorSchemaRoot tables(RequestContext request, Optional<String> catalog,
            Optional<String> schemaPattern, Optional<String> tablePattern, List<String> types, boolean includeSchema) {
        List<Object[]> rows = new ArrayList<>();
        if (noCatalog(catalog) && (types.isEmpty() || types.contains(TABLE))) {
            Pattern schemas = like(schemaPattern);
            Pattern tables = like(tablePattern);
            for (String database : sorted(request.await(request.admin().listDatabases(), "Listing databases"))) {
                if (!schemas.matcher(database).matches()) {
                    continue;
                }
                for (String table : sorted(request.await(request.admin().listTables(database),
                        "Listing tables of " + database))) {
                    if (!tables.matcher(table).matches()) {
                        continue;
                    }
                    if (includeSchema) {
                        TableInfo info = request.tableInfo(TablePath.of(database, table));
                        rows.add(new Object[] {null, database, table, TABLE, arrowSchema(info).serializeAsMessage()});
                    } else {
                        rows.add(new Object[] {null, database, table, TABLE});
                    }
                }
            }
        }
        return MetadataRows.of(includeSchema ? Schemas.GET_TABLES_SCHEMA : Schemas.GET_TABLES_SCHEMA_NO_SCHEMA, rows,
                request.allocator());
    }

    public static VectorSchemaRoot primaryKeys(RequestContext request, Optional<String> catalog,
            Optional<String> schema, String table) {
        List<Object[]> rows = new ArrayList<>();
        if (noCatalog(catalog) && schema.isPresent()) {
            TableInfo info = request.tableInfo(TablePath.of(schema.get(), table));
            List<String> keys = info.getPrimaryKeys();
            for (int i = 0; i < keys.size(); i++) {
                rows.add(new Object[] {null, schema.get(), table, keys.get(i), i + 1, "pk_" + table});
            }
        }
        return MetadataRows.of(Schemas.GET_PRIMARY_KEYS_SCHEMA, rows, request.allocator());
    }

    /** Foreign keys (imported, exported, cross reference): Fluss has none. */
    public static VectorSchemaRoot noForeignKeys(Schema schema, BufferAllocator allocator) {
        return MetadataRows.of(schema, List.of(), allocator);
    }

    /**
     * A table's columns as Arrow fields with the metadata JDBC's {@code getColumns} reads: the SQL
     * type name Riffle's SQL uses, precision and scale, nullability.
     */
    static Schema arrowSchema(TableInfo info) {
        List<Field> fields = new ArrayList<>();
        TablePath path = info.getTablePath();
        for (DataField column : info.getRowType().getFields()) {
            Field arrow = ArrowTypeMapping.toArrowField(column.getName(), column.getType());
            FlightSqlColumnMetadata.Builder metadata = new FlightSqlColumnMetadata.Builder()
                    .schemaName(path.getDatabaseName())
                    .tableName(path.getTableName())
                    .typeName(SqlTypes.typeName(column.getType()))
                    .isAutoIncrement(false)
                    .isCaseSensitive(true)
                    .isReadOnly(false)
                    .isSearchable(true);
            precision(column.getType()).ifPresent(metadata::precision);
            if (column.getType() instanceof DecimalType decimal) {
                metadata.scale(decimal.getScale());
            }
            column.getDescription().ifPresent(metadata::remarks);
            fields.add(new Field(arrow.getName(), new FieldType(arrow.isNullable(), arrow.getType(),
                    arrow.getDictionary(), metadata.build().getMetadataMap()), arrow.getChildren()));
        }
        return new Schema(fields);
    }

    private static Optional<Integer> precision(DataType type) {
        return switch (type.getTypeRoot()) {
            case DECIMAL -> Optional.of(((DecimalType) type).getPrecision());
            case TINYINT -> Optional.of(3);
            case SMALLINT -> Optional.of(5);
            case INTEGER -> Optional.of(10);
            case BIGINT -> Optional.of(19);
            default -> Optional.empty();
        };
    }

    private static boolean noCatalog(Optional<String> catalog) {
        return catalog.isEmpty() || catalog.get().isEmpty();
    }

    private static List<String> sorted(List<String> names) {
        List<String> copy = new ArrayList<>(requireNonNull(names, "names is null"));
        copy.sort(null);
        return copy;
    }

    /** A SQL LIKE pattern as a regular expression; no pattern matches everything. */
    static Pattern like(Optional<String> pattern) {
        if (pattern.isEmpty()) {
            return Pattern.compile("(?s).*");
        }
        StringBuilder regex = new StringBuilder("(?s)");
        String text = pattern.get();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                regex.append(Pattern.quote(String.valueOf(text.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}
