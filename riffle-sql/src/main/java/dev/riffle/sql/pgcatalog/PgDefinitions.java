package dev.riffle.sql.pgcatalog;

import dev.riffle.sql.dialect.Oids;
import dev.riffle.sql.pgcatalog.CatalogSnapshot.Attribute;
import dev.riffle.sql.pgcatalog.CatalogSnapshot.Relation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The definitions PostgreSQL's catalog functions write of Riffle's objects, as PostgreSQL writes
 * them: a primary key's index ({@code CREATE UNIQUE INDEX orders_pkey ON shop.orders USING btree
 * (id)}), its constraint ({@code PRIMARY KEY (id)}), a partitioned table's key ({@code LIST
 * (region)}), and names quoted as {@code quote_ident} quotes them.
 *
 * <pre>{@code
 * PgDefinitions.quote("Orders")   // "\"Orders\""
 * }</pre>
 */
public final class PgDefinitions {
    /** Words PostgreSQL reserves, which a name must be quoted to be. */
    private static final Set<String> RESERVED = Set.of("all", "analyse", "analyze", "and", "any", "array", "as",
            "asc", "asymmetric", "both", "case", "cast", "check", "collate", "column", "constraint", "create",
            "current_catalog", "current_date", "current_role", "current_time", "current_timestamp", "current_user",
            "default", "deferrable", "desc", "distinct", "do", "else", "end", "except", "false", "fetch", "for",
            "foreign", "from", "grant", "group", "having", "in", "initially", "intersect", "into", "lateral",
            "leading", "limit", "localtime", "localtimestamp", "not", "null", "offset", "on", "only", "or", "order",
            "placing", "primary", "references", "returning", "select", "session_user", "some", "symmetric", "table",
            "then", "to", "trailing", "true", "union", "unique", "user", "using", "variadic", "when", "where",
            "window", "with");

    private PgDefinitions() {}

    /** {@code name} as PostgreSQL's {@code quote_ident} writes it: quoted unless it is lower case and no keyword. */
    public static String quote(String name) {
        boolean plain = !name.isEmpty() && (Character.isLowerCase(name.charAt(0)) || name.charAt(0) == '_')
                && name.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')
                && !RESERVED.contains(name);
        return plain ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** {@code pg_get_indexdef(oid)}: the index's CREATE statement, empty for an object that is no index. */
    public static String index(CatalogSnapshot snapshot, int oid) {
        return indexRelation(snapshot, oid).map(index -> {
            Relation table = snapshot.relation(oid - Oids.INDEX_OFFSET).orElseThrow();
            return "CREATE UNIQUE INDEX " + quote(index.name()) + " ON " + qualified(table) + " USING btree ("
                    + index.attributes().stream().map(a -> quote(a.name())).collect(Collectors.joining(", ")) + ")";
        }).orElse(null);
    }

    /** {@code pg_get_indexdef(oid, column, pretty)}: column 0 the whole index, else that column's name. */
    public static String index(CatalogSnapshot snapshot, int oid, int column) {
        if (column == 0) {
            return index(snapshot, oid);
        }
        return indexRelation(snapshot, oid).filter(index -> column <= index.attributes().size())
                .map(index -> quote(index.attributes().get(column - 1).name())).orElse("");
    }

    private static Optional<Relation> indexRelation(CatalogSnapshot snapshot, int oid) {
        return snapshot.relation(oid).filter(relation -> relation.kind() == 'i');
    }

    /** {@code pg_get_constraintdef(oid)}: a primary key's {@code PRIMARY KEY (columns)}. */
    public static String constraint(CatalogSnapshot snapshot, int oid) {
        return indexRelation(snapshot, oid).map(index -> "PRIMARY KEY (" + index.attributes().stream()
                .map(a -> quote(a.name())).collect(Collectors.joining(", ")) + ")").orElse(null);
    }

    /** {@code pg_get_partkeydef(oid)}: a partitioned table's {@code LIST (columns)}. */
    public static String partitionKey(CatalogSnapshot snapshot, int oid) {
        return snapshot.relation(oid).filter(relation -> relation.kind() == 'p').map(table -> "LIST ("
                + partitionKeys(table).stream().map(n -> quote(table.attributes().get(n - 1).name()))
                        .collect(Collectors.joining(", ")) + ")").orElse(null);
    }

    /** The attribute numbers of a partitioned table's partition keys. */
    static List<Short> partitionKeys(Relation table) {
        List<Short> keys = new ArrayList<>();
        for (String key : table.table().map(info -> info.getPartitionKeys()).orElse(List.of())) {
            for (Attribute attribute : table.attributes()) {
                if (attribute.name().equals(key)) {
                    keys.add(attribute.number());
                }
            }
        }
        return keys;
    }

    /** {@code schema.name}, each quoted when it must be. */
    static String qualified(Relation relation) {
        return quote(relation.namespace().name()) + "." + quote(relation.name());
    }

    /** A size as {@code pg_size_pretty} writes it: {@code 0 bytes}, {@code 12 kB}, {@code 3 MB}. */
    public static String prettySize(long bytes) {
        String[] units = {"bytes", "kB", "MB", "GB", "TB", "PB"};
        double value = bytes;
        int unit = 0;
        while (Math.abs(value) >= 10 * 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%d %s", Math.round(value), units[unit]);
    }
}
