package dev.riffle.pgwire.catalog;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.session.PgException;
import dev.riffle.pgwire.types.ColumnType;
import dev.riffle.pgwire.types.PgTypeNames;
import dev.riffle.server.session.RequestContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;

/**
 * Answers psql's catalog queries ({@link CatalogQuery}) from Fluss metadata, as PostgreSQL would
 * answer them for the same tables: the one database {@code riffle}; Fluss databases as schemas;
 * tables as relations (kind {@code r}, or {@code p} for a partitioned table) whose OID is
 * {@value #FIRST_OID} plus the Fluss table id; columns with the PostgreSQL type their values
 * travel as ({@link PgTypeNames}) and NOT NULL; a primary key as the unique index
 * {@code <table>_pkey}; a partitioned table's partition key as {@code LIST (keys)} and its
 * partitions as {@code FOR VALUES IN (...)}. Fluss has no owners, so owners are empty. Every
 * schema counts as visible: Riffle has no search path, and hiding every table from a plain
 * {@code \dt} would help no one. The verbose forms add what Fluss knows: the comments of databases,
 * tables and columns as descriptions, and each column's PostgreSQL storage strategy; a table's
 * access method is {@code heap} (as PostgreSQL says of every ordinary table; a partitioned table has
 * none), and sizes are left empty (NULL), since the Fluss client reports no table or database size.
 *
 * <pre>{@code
 * FlussCatalog catalog = new FlussCatalog();
 * CatalogAnswer schemas = catalog.answer(query, request);
 * }</pre>
 */
public final class FlussCatalog {
    /** PostgreSQL's first OID for user objects: table OIDs start here. */
    public static final long FIRST_OID = 16384;

    /** The tables this connection's queries named, by OID (psql asks by OID after its lookup). */
    private final Map<Long, TablePath> tables = new ConcurrentHashMap<>();

    /** The rows answering {@code query}, read in {@code request}. */
    public CatalogAnswer answer(CatalogQuery query, RequestContext request) {
        requireNonNull(query, "query is null");
        requireNonNull(request, "request is null");
        List<List<Optional<String>>> rows = switch (query.kind()) {
            case DATABASES -> List.of(row("riffle", "", "UTF8", "C", "C", null, "libc", null));
            // Riffle's one database lives in Fluss's default storage: pg_default, as reltablespace 0 says.
            case DATABASES_VERBOSE -> List.of(row("riffle", "", "UTF8", "C", "C", null, "libc", null, null,
                    "pg_default", null));
            case SCHEMAS -> schemas(query.schema(), request).stream().map(s -> row(s, "")).toList();
            case SCHEMAS_VERBOSE -> schemas(query.schema(), request).stream()
                    .map(s -> row(s, "", null, databaseComment(s, request).orElse(null))).toList();
            case RELATIONS, RELATIONS_VERBOSE -> relations(query, request);
            case TABLE_LOOKUP -> lookup(query, request);
            case TABLE_INFO -> tableInfo(table(query, request));
            case COLUMNS -> columns(table(query, request), false);
            case COLUMNS_VERBOSE -> columns(table(query, request), true);
            case PARTITION_KEY -> partitionKey(table(query, request));
            case INDEXES -> indexes(table(query, request));
            case PARTITIONS -> partitions(table(query, request), request);
            case JDBC_TABLES -> jdbcTables(query, request);
            case JDBC_COLUMNS -> jdbcColumns(query, request);
            case JDBC_PRIMARY_KEYS -> jdbcPrimaryKeys(query, request);
            case NOTHING -> List.of();
        };
        return new CatalogAnswer(query.kind().columns(), rows);
    }

    private static List<String> schemas(Optional<NamePattern> pattern, RequestContext request) {
        List<String> databases = new ArrayList<>(request.await(request.admin().listDatabases(), "Listing databases"));
        databases.removeIf(name -> pattern.isPresent() && !pattern.get().matches(name));
        databases.sort(Comparator.naturalOrder());
        return databases;
    }

    private static Optional<String> databaseComment(String database, RequestContext request) {
        return request.await(request.admin().getDatabaseInfo(database), "Reading database " + database)
                .getDatabaseDescriptor().getComment();
    }

    /** The tables in the schemas and with the names the patterns match, in schema then name order. */
    private static List<TableInfo> tables(Optional<NamePattern> schema, Optional<NamePattern> name,
            RequestContext request) {
        List<TableInfo> found = new ArrayList<>();
        for (String database : schemas(schema, request)) {
            List<String> names = new ArrayList<>(request.await(request.admin().listTables(database),
                    "Listing tables of " + database));
            names.sort(Comparator.naturalOrder());
            for (String table : names) {
                if (name.isEmpty() || name.get().matches(table)) {
                    found.add(request.session().handles().info(TablePath.of(database, table)));
                }
            }
        }
        return found;
    }

    private static List<List<Optional<String>>> relations(CatalogQuery query, RequestContext request) {
        boolean tables = query.relkinds().contains("r");
        boolean partitioned = query.relkinds().contains("p");
        if (!tables && !partitioned) {
            return List.of(); // views, indexes, sequences, ...: Fluss has none to list
        }
        List<List<Optional<String>>> rows = new ArrayList<>();
        for (TableInfo table : tables(query.schema(), query.name(), request)) {
            if (!(table.isPartitioned() ? partitioned : tables)) {
                continue;
            }
            String schema = table.getTablePath().getDatabaseName();
            String name = table.getTablePath().getTableName();
            String type = table.isPartitioned() ? "partitioned table" : "table";
            if (query.kind() == CatalogQuery.Kind.RELATIONS_VERBOSE) {
                // Size: NULL, as the Fluss client reports no table size; an empty cell rather than a made-up one.
                rows.add(row(schema, name, type, "", "permanent", table.isPartitioned() ? null : "heap", null,
                        table.getComment().orElse(null)));
            } else {
                rows.add(row(schema, name, type, ""));
            }
        }
        return rows;
    }

    private List<List<Optional<String>>> lookup(CatalogQuery query, RequestContext request) {
        List<List<Optional<String>>> rows = new ArrayList<>();
        for (TableInfo table : tables(query.schema(), query.name(), request)) {
            long oid = FIRST_OID + table.getTableId();
            tables.put(oid, table.getTablePath());
            rows.add(row(Long.toString(oid), table.getTablePath().getDatabaseName(),
                    table.getTablePath().getTableName()));
        }
        return rows;
    }

    /** The table with the query's OID: one this connection looked up, else found among all tables. */
    private TableInfo table(CatalogQuery query, RequestContext request) {
        long oid = query.oid().orElseThrow();
        TablePath known = tables.get(oid);
        if (known != null) {
            TableInfo info = request.session().handles().info(known);
            if (FIRST_OID + info.getTableId() == oid) {
                return info;
            }
        }
        for (TableInfo table : tables(Optional.empty(), Optional.empty(), request)) {
            if (FIRST_OID + table.getTableId() == oid) {
                tables.put(oid, table.getTablePath());
                return table;
            }
        }
        throw new PgException("42P01", "relation with OID " + oid + " does not exist");
    }

    private static List<List<Optional<String>>> tableInfo(TableInfo table) {
        boolean partitioned = table.isPartitioned();
        return List.of(row("0", partitioned ? "p" : "r", bool(table.hasPrimaryKey()), "f", "f", "f", "f", "f", "f", "",
                "0", "", "p", "d", partitioned ? null : "heap"));
    }

    /** The columns; {@code verbose} adds storage, compression (none), statistics target (none) and comment. */
    private static List<List<Optional<String>>> columns(TableInfo table, boolean verbose) {
        RowType rowType = table.getRowType();
        List<List<Optional<String>>> rows = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            String name = rowType.getFieldNames().get(i);
            DataType type = rowType.getTypeAt(i);
            boolean notNull = !type.isNullable() || table.getPrimaryKeys().contains(name);
            if (verbose) {
                rows.add(row(name, PgTypeNames.format(type), null, bool(notNull), null, "", "",
                        PgTypeNames.storage(type), "", null, columnComment(table, name).orElse(null)));
            } else {
                rows.add(row(name, PgTypeNames.format(type), null, bool(notNull), null, "", ""));
            }
        }
        return rows;
    }

    private static Optional<String> columnComment(TableInfo table, String column) {
        return table.getSchema().getColumns().stream().filter(c -> c.getName().equals(column)).findFirst()
                .flatMap(Schema.Column::getComment);
    }

    private static List<List<Optional<String>>> partitionKey(TableInfo table) {
        if (!table.isPartitioned()) {
            return List.of();
        }
        return List.of(row("LIST (" + String.join(", ", table.getPartitionKeys()) + ")"));
    }

    private static List<List<Optional<String>>> indexes(TableInfo table) {
        if (!table.hasPrimaryKey()) {
            return List.of();
        }
        String name = table.getTablePath().getTableName() + "_pkey";
        String keys = String.join(", ", table.getPrimaryKeys());
        String definition = "CREATE UNIQUE INDEX " + name + " ON " + table.getTablePath() + " USING btree (" + keys
                + ")";
        return List.of(row(name, "t", "t", "f", "t", definition, "PRIMARY KEY (" + keys + ")", "p", "f", "f", "f",
                "0"));
    }

    private static List<List<Optional<String>>> partitions(TableInfo table, RequestContext request) {
        if (!table.isPartitioned()) {
            return List.of();
        }
        List<PartitionInfo> partitions = new ArrayList<>(request.await(
                request.admin().listPartitionInfos(table.getTablePath()), "Listing partitions of "
                        + table.getTablePath()));
        partitions.sort(Comparator.comparing(PartitionInfo::getPartitionName));
        List<List<Optional<String>>> rows = new ArrayList<>();
        for (PartitionInfo partition : partitions) {
            String name = partition.getPartitionName();
            String values = String.join(", ", Arrays.stream(name.split("\\$")).map(v -> "'" + v.replace("'", "''") + "'")
                    .toList());
            rows.add(row(table.getTablePath().getDatabaseName() + ".\"" + table.getTablePath().getTableName() + "$"
                    + name + "\"", "r", "f", "FOR VALUES IN (" + values + ")"));
        }
        return rows;
    }

    private static List<List<Optional<String>>> jdbcTables(CatalogQuery query, RequestContext request) {
        List<List<Optional<String>>> rows = new ArrayList<>();
        for (TableInfo table : tables(query.schema(), query.name(), request)) {
            if (query.relkinds().contains(table.isPartitioned() ? "p" : "r")) {
                rows.add(row("riffle", table.getTablePath().getDatabaseName(), table.getTablePath().getTableName(),
                        table.isPartitioned() ? "PARTITIONED TABLE" : "TABLE", null, "", "", "", "", ""));
            }
        }
        // ORDER BY "TABLE_TYPE", "TABLE_SCHEM", "TABLE_NAME", as pgjdbc asks.
        rows.sort(Comparator.comparing((List<Optional<String>> r) -> r.get(3).orElse(""))
                .thenComparing(r -> r.get(1).orElse("")).thenComparing(r -> r.get(2).orElse("")));
        return rows;
    }

    private static List<List<Optional<String>>> jdbcColumns(CatalogQuery query, RequestContext request) {
        List<List<Optional<String>>> rows = new ArrayList<>();
        for (TableInfo table : tables(query.schema(), query.name(), request)) {
            RowType rowType = table.getRowType();
            for (int i = 0; i < rowType.getFieldCount(); i++) {
                String name = rowType.getFieldNames().get(i);
                if (query.column().isPresent() && !query.column().get().matches(name)) {
                    continue;
                }
                DataType type = rowType.getTypeAt(i);
                ColumnType wire = PgTypeNames.columnType(type);
                boolean notNull = !type.isNullable() || table.getPrimaryKeys().contains(name);
                rows.add(row("riffle", table.getTablePath().getDatabaseName(), table.getTablePath().getTableName(),
                        name, Integer.toString(wire.oid()), bool(notNull), Integer.toString(PgTypeNames.typmod(type)),
                        Integer.toString(wire.size()), "-1", Integer.toString(i + 1), null, null, null, null, "0", "b"));
            }
        }
        return rows;
    }

    private static List<List<Optional<String>>> jdbcPrimaryKeys(CatalogQuery query, RequestContext request) {
        List<List<Optional<String>>> rows = new ArrayList<>();
        for (TableInfo table : tables(query.schema(), query.name(), request)) {
            List<String> keys = table.getPrimaryKeys();
            for (int k = 0; k < keys.size(); k++) {
                rows.add(row("riffle", table.getTablePath().getDatabaseName(), table.getTablePath().getTableName(),
                        keys.get(k), Integer.toString(k + 1), table.getTablePath().getTableName() + "_pkey"));
            }
        }
        return rows;
    }

    private static String bool(boolean value) {
        return value ? "t" : "f";
    }

    private static List<Optional<String>> row(String... values) {
        List<Optional<String>> row = new ArrayList<>(values.length);
        for (String value : values) {
            row.add(Optional.ofNullable(value));
        }
        return row;
    }
}
