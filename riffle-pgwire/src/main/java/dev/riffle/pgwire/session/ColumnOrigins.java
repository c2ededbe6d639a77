package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.server.session.RequestContext;
import dev.riffle.sql.exec.StatementShape;
import dev.riffle.sql.pgcatalog.Oids;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Where a statement's columns come from, as a RowDescription says it: for a Fluss table's column
 * read as it is, the table's OID and the column's attribute number, the same numbers
 * {@code pg_class} and {@code pg_attribute} hold, so that pgjdbc's {@code getTableName} and
 * {@code getBaseColumnName} (and the tools built on them, DBeaver's result editor) find the table.
 * Computed columns, and the system catalogs' own, say 0 and 0, as PostgreSQL does for computed ones.
 *
 * <pre>{@code
 * Prepared.Column column = ColumnOrigins.of(field, request);   // tableOid 16391, attnum 2
 * }</pre>
 */
final class ColumnOrigins {
    private ColumnOrigins() {}

    /** The column {@code field} of a statement's rows is, with its origin when it has one. */
    static Prepared.Column of(Field field, RequestContext request) {
        requireNonNull(request, "request is null");
        Prepared.Column column = Prepared.Column.of(field);
        Map<String, String> metadata = field.getMetadata();
        if (metadata == null || !metadata.containsKey(StatementShape.ORIGIN_TABLE)) {
            return column;
        }
        String database = metadata.get(StatementShape.ORIGIN_SCHEMA);
        String table = metadata.get(StatementShape.ORIGIN_TABLE);
        String name = metadata.get(StatementShape.ORIGIN_COLUMN);
        if (database == null || name == null || database.equals("pg_catalog")
                || database.equals("information_schema")) {
            return column;
        }
        return attribute(request, TablePath.of(database, table), name)
                .map(origin -> column.withOrigin(origin.tableOid(), origin.attnum())).orElse(column);
    }

    private record Origin(int tableOid, short attnum) {}

    private static Optional<Origin> attribute(RequestContext request, TablePath path, String columnName) {
        TableInfo info;
        try {
            info = request.tableInfo(path); // the session's cached table, which the statement just resolved
        } catch (RuntimeException gone) {
            return Optional.empty(); // dropped since: the answer says no table rather than fail
        }
        List<String> names = info.getSchema().getColumnNames();
        int index = names.indexOf(columnName);
        return index < 0 ? Optional.empty()
                : Optional.of(new Origin(Oids.table(info.getTableId()), (short) (index + 1)));
    }
}
