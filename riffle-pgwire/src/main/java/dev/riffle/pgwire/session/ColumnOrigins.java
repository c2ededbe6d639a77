package dev.riffle.pgwire.session;

import dev.riffle.sql.dialect.Oids;
import dev.riffle.sql.engine.StatementShape;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Where a statement's columns come from, as a RowDescription says it: for a Fluss table's column
 * read as it is, the table's OID and the column's attribute number, the same numbers
 * {@code pg_class} and {@code pg_attribute} hold, so that pgjdbc's {@code getTableName} and
 * {@code getBaseColumnName} (and the tools built on them, DBeaver's result editor) find the table.
 * Computed columns, and the system catalogs' own, say 0 and 0, as PostgreSQL does for computed ones.
 *
 * <pre>{@code
 * Prepared.Column column = ColumnOrigins.of(field);   // tableOid 16391, attnum 2
 * }</pre>
 */
final class ColumnOrigins {
    private ColumnOrigins() {}

    /**
     * The column {@code field} of a statement's rows is, with its origin when it has one: from the
     * field's metadata, which planning filled from the table it resolved (no call to the cluster).
     */
    static Prepared.Column of(Field field) {
        Prepared.Column column = Prepared.Column.of(field);
        Map<String, String> metadata = field.getMetadata();
        if (metadata == null) {
            return column;
        }
        String database = metadata.get(StatementShape.ORIGIN_SCHEMA);
        String tableId = metadata.get(StatementShape.ORIGIN_TABLE_ID);
        String position = metadata.get(StatementShape.ORIGIN_POSITION);
        if (database == null || tableId == null || position == null || database.equals("pg_catalog")
                || database.equals("information_schema")) {
            return column;
        }
        return column.withOrigin(Oids.table(Long.parseLong(tableId)), Short.parseShort(position));
    }
}
