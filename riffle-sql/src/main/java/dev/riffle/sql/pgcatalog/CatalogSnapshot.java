package dev.riffle.sql.pgcatalog;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.dialect.Oids;
import dev.riffle.sql.dialect.PgType;
import dev.riffle.sql.exec.FlussSession;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.fluss.metadata.DatabaseInfo;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * The Fluss catalog as PostgreSQL's catalogs see it, at one moment: each database a schema
 * (namespace), each table a relation ({@code r}, or {@code p} when partitioned, its partitions
 * relations {@code t$p} of their own) with its columns as attributes, its primary key an index
 * ({@code i}, named {@code <table>_pkey}) and a constraint,
 * its comments descriptions; and the system catalogs themselves, in {@code pg_catalog} and
 * {@code information_schema}. What one statement's catalog tables read (see {@link CatalogSnapshots}).
 *
 * <pre>{@code
 * CatalogSnapshot snapshot = CatalogSnapshot.of(session, PgCatalogTables.system());
 * snapshot.relation("shop", "orders").map(Relation::oid)
 * }</pre>
 */
public final class CatalogSnapshot {
    /**
     * What makes a relation a partition of a Fluss table ({@code t$p}, named as Fluss names it):
     * the table's OID and PostgreSQL's bound ({@code FOR VALUES IN ('2024-06-01')}).
     */
    public record Partition(int parent, String bound) {}

    /** A schema: a Fluss database, or one of PostgreSQL's own. */
    public record Namespace(int oid, String name) {}

    /** A column of a relation ({@code attnum} from 1). */
    public record Attribute(short number, String name, int typeOid, int typmod, boolean notNull,
            Optional<String> comment) {
        /** {@code attlen}: the type's fixed size, -1 for variable. */
        public short length() {
            return PgType.ofOid(typeOid).map(PgType::size).orElse((short) -1);
        }

        public boolean byValue() {
            return PgType.ofOid(typeOid).map(PgType::byValue).orElse(false);
        }
    }

    /**
     * A relation: a table ({@code r}, {@code p}), a view ({@code v}) or an index ({@code i}).
     *
     * @param primaryKey the attribute numbers of the primary key, in key order (none: no key)
     * @param table the Fluss table, for a table or its index
     */
    public record Relation(int oid, Namespace namespace, String name, char kind, List<Attribute> attributes,
            Optional<String> comment, List<Short> primaryKey, Optional<TableInfo> table, Optional<Partition> partition) {
        public Relation {
            attributes = List.copyOf(attributes);
            primaryKey = List.copyOf(primaryKey);
            requireNonNull(partition, "partition is null");
        }

        Relation(int oid, Namespace namespace, String name, char kind, List<Attribute> attributes,
                Optional<String> comment, List<Short> primaryKey, Optional<TableInfo> table) {
            this(oid, namespace, name, kind, attributes, comment, primaryKey, table, Optional.empty());
        }

        /** Whether it is one of Fluss's tables (not a system catalog, not an index). */
        public boolean isFlussTable() {
            return table.isPresent() && kind != 'i';
        }

        /** The OID of its primary-key index and constraint, when it has a key. */
        public Optional<Integer> primaryKeyOid() {
            return primaryKey.isEmpty() || kind == 'i' ? Optional.empty() : Optional.of(Oids.primaryKey(oid));
        }

        /** {@code <table>_pkey}: the name PostgreSQL gives a primary key's index and constraint. */
        public String primaryKeyName() {
            return name + "_pkey";
        }
    }

    private final List<Namespace> namespaces;
    private final List<Relation> relations;
    /** Fluss's databases' comments, asked for when a statement first reads one (an RPC per database). */
    private final Supplier<Map<String, String>> fetchComments;
    private volatile Map<String, String> databaseComments;
    private final Map<Integer, Relation> byOid = new HashMap<>();
    private final Map<Integer, Namespace> namespacesByOid = new HashMap<>();

    private CatalogSnapshot(List<Namespace> namespaces, List<Relation> relations,
            Supplier<Map<String, String>> databaseComments) {
        this.namespaces = List.copyOf(namespaces);
        this.relations = List.copyOf(relations);
        this.fetchComments = databaseComments;
        relations.forEach(relation -> byOid.put(relation.oid(), relation));
        namespaces.forEach(namespace -> namespacesByOid.put(namespace.oid(), namespace));
    }

    /** The catalog of {@code session}'s cluster now, with {@code system} (the catalog tables) as PostgreSQL's relations. */
    public static CatalogSnapshot of(FlussSession session, List<CatalogTable> system) {
        requireNonNull(session, "session is null");
        List<Namespace> namespaces = new ArrayList<>();
        Namespace pgCatalog = new Namespace(Oids.PG_CATALOG, PgCatalogSchema.NAME);
        Namespace informationSchema = new Namespace(Oids.INFORMATION_SCHEMA, InformationSchema.NAME);
        namespaces.add(pgCatalog);
        namespaces.add(informationSchema);
        List<Relation> relations = new ArrayList<>();
        for (CatalogTable table : system) {
            Namespace namespace = table.namespace() == Oids.PG_CATALOG ? pgCatalog : informationSchema;
            List<Attribute> attributes = new ArrayList<>();
            short number = 1;
            for (CatalogTable.Column column : table.columns()) {
                attributes.add(new Attribute(number++, column.name(), column.typeOid(), -1, false, Optional.empty()));
            }
            relations.add(new Relation(table.oid(), namespace, table.name(), table.kind(), attributes, Optional.empty(),
                    List.of(), Optional.empty()));
        }
        Map<Relation, CompletableFuture<List<PartitionInfo>>> partitioned =
                new LinkedHashMap<>();
        for (String database : new TreeSet<>(session.databases())) {
            Namespace namespace = new Namespace(Oids.namespace(database), database);
            namespaces.add(namespace);
            for (String name : new TreeSet<>(session.tables(database))) {
                session.recentTableInfo(TablePath.of(database, name)).ifPresent(info -> {
                    Relation table = add(relations, namespace, info);
                    if (info.isPartitioned()) {
                        partitioned.put(table, session.admin().listPartitionInfos(info.getTablePath()));
                    }
                });
            }
        }
        // every partitioned table's partitions asked for at once: one round trip, not one per table
        partitioned.forEach((table, asked) -> partitions(table, asked, session).forEach(relations::add));
        List<String> databases = namespaces.stream().skip(2).map(Namespace::name).toList();
        return new CatalogSnapshot(namespaces, relations, () -> comments(session, databases));
    }

    /** The comments of {@code databases}, asked for all at once. */
    private static Map<String, String> comments(FlussSession session, List<String> databases) {
        Map<String, CompletableFuture<DatabaseInfo>> asked =
                new LinkedHashMap<>();
        databases.forEach(database -> asked.put(database, session.admin().getDatabaseInfo(database)));
        Map<String, String> comments = new HashMap<>();
        asked.forEach((database, info) -> {
            try {
                FlussSession.await(info, "Reading database " + database).getDatabaseDescriptor().getComment()
                        .ifPresent(comment -> comments.put(database, comment));
            } catch (RuntimeException droppedMeanwhile) {
                // a database dropped since the snapshot has no comment to show
            }
        });
        return comments;
    }

    /** The comment of a Fluss database (a schema), if it has one. */
    public Optional<String> comment(Namespace namespace) {
        Map<String, String> comments = databaseComments;
        if (comments == null) {
            synchronized (this) {
                if (databaseComments == null) {
                    databaseComments = Map.copyOf(fetchComments.get());
                }
                comments = databaseComments;
            }
        }
        return Optional.ofNullable(comments.get(namespace.name()));
    }

    /** The partitions of {@code table} as relations {@code t$p} (none if it was dropped meanwhile). */
    private static List<Relation> partitions(Relation table, CompletableFuture<
            List<PartitionInfo>> asked, FlussSession session) {
        List<PartitionInfo> infos;
        try {
            infos = new ArrayList<>(FlussSession.await(asked, "Listing the partitions of " + table.name()));
        } catch (RuntimeException droppedMeanwhile) {
            return List.of();
        }
        infos.sort(Comparator.comparing(PartitionInfo::getPartitionName));
        List<Relation> partitions = new ArrayList<>();
        for (PartitionInfo info : infos) {
            String values = String.join(", ", Arrays.stream(info.getPartitionName().split("\\$", -1))
                    .map(v -> "'" + v.replace("'", "''") + "'").toList());
            partitions.add(new Relation(Oids.partition(info.getPartitionId()), table.namespace(),
                    table.name() + "$" + info.getPartitionName(), 'r', table.attributes(), Optional.empty(), List.of(),
                    table.table(), Optional.of(new Partition(table.oid(), "FOR VALUES IN (" + values + ")"))));
        }
        return partitions;
    }

    private static Relation add(List<Relation> relations, Namespace namespace, TableInfo info) {
        int oid = Oids.table(info.getTableId());
        Schema schema = info.getSchema();
        List<String> primaryKey = info.getPrimaryKeys();
        List<Attribute> attributes = new ArrayList<>();
        List<Short> keyNumbers = new ArrayList<>(Collections.nCopies(primaryKey.size(), (short) 0));
        short number = 1;
        for (Schema.Column column : schema.getColumns()) {
            PgColumnType type = PgColumnType.of(column.getDataType());
            int key = primaryKey.indexOf(column.getName());
            if (key >= 0) {
                keyNumbers.set(key, number);
            }
            attributes.add(new Attribute(number++, column.getName(), type.oid(), type.typmod(),
                    !column.getDataType().isNullable() || key >= 0, column.getComment()));
        }
        char kind = info.isPartitioned() ? 'p' : 'r';
        String name = info.getTablePath().getTableName();
        Relation table = new Relation(oid, namespace, name, kind, attributes, info.getComment(), keyNumbers,
                Optional.of(info));
        relations.add(table);
        if (!keyNumbers.isEmpty()) {
            List<Attribute> indexed = new ArrayList<>();
            short position = 1;
            for (short key : keyNumbers) {
                Attribute column = attributes.get(key - 1);
                indexed.add(new Attribute(position++, column.name(), column.typeOid(), column.typmod(), true,
                        Optional.empty()));
            }
            relations.add(new Relation(Oids.primaryKey(oid), namespace, name + "_pkey", 'i', indexed, Optional.empty(),
                    keyNumbers, Optional.of(info)));
        }
        return table;
    }

    public List<Namespace> namespaces() {
        return namespaces;
    }

    public List<Relation> relations() {
        return relations;
    }

    public Optional<Relation> relation(int oid) {
        return Optional.ofNullable(byOid.get(oid));
    }

    public Optional<Namespace> namespace(int oid) {
        return Optional.ofNullable(namespacesByOid.get(oid));
    }

    /**
     * The relation {@code name} of schema {@code schema}, or, without a schema, the first of the
     * search path ({@code pg_catalog}, then {@code searchPath}) that has one; as PostgreSQL
     * resolves a name, exactly, then ignoring case when no name matches exactly.
     */
    public Optional<Relation> relation(Optional<String> schema, String name, List<String> searchPath) {
        List<String> schemas = schema.map(List::of).orElseGet(() -> {
            List<String> path = new ArrayList<>();
            path.add(PgCatalogSchema.NAME);
            path.addAll(searchPath);
            return path;
        });
        for (boolean exact : new boolean[] {true, false}) {
            for (String candidate : schemas) {
                for (Relation relation : relations) {
                    if (matches(relation.namespace().name(), candidate, exact) && matches(relation.name(), name, exact)) {
                        return Optional.of(relation);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static boolean matches(String actual, String written, boolean exact) {
        return exact ? actual.equals(written) : actual.equalsIgnoreCase(written);
    }
}
