package dev.riffle.sql.pgcatalog;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.dialect.Oids;
import dev.riffle.sql.dialect.PgType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * One table (or view) of PostgreSQL's system catalogs: its columns, typed as PostgreSQL types
 * them, and its rows, computed from a {@link CatalogSnapshot} of the Fluss catalog when a statement
 * scans it (every table a statement scans sees the same snapshot).
 *
 * <pre>{@code
 * CatalogTable namespaces = CatalogTable.named("pg_namespace", 2615, Oids.PG_CATALOG)
 *         .column("oid", PgType.OID).column("nspname", PgType.NAME)
 *         .rows(snapshot -> snapshot.namespaces().stream().map(n -> new Object[] {n.oid(), n.name()}).toList());
 * }</pre>
 */
public final class CatalogTable extends AbstractTable implements ScannableTable {
    /** A column: its name and PostgreSQL type ({@code array}: an array of it). */
    public record Column(String name, PgType type, boolean array) {
        public Column {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }

        /** The column's type as a catalog table's column ({@code atttypid}). */
        public int typeOid() {
            return array ? type.arrayOid() : type.oid();
        }
    }

    private final String name;
    private final int oid;
    private final int namespace;
    private final char kind;
    private final List<Column> columns;
    private final BiFunction<CatalogSnapshot, DataContext, List<Object[]>> rows;
    private CatalogSnapshots snapshots;

    private CatalogTable(String name, int oid, int namespace, char kind, List<Column> columns,
            BiFunction<CatalogSnapshot, DataContext, List<Object[]>> rows) {
        this.name = requireNonNull(name, "name is null");
        this.oid = oid;
        this.namespace = namespace;
        this.kind = kind;
        this.columns = List.copyOf(columns);
        this.rows = requireNonNull(rows, "rows is null");
    }

    /** A table being defined: name, OID, the schema it is in. */
    public static Builder named(String name, int oid, int namespace) {
        return new Builder(name, oid, namespace, 'r');
    }

    /** A view being defined (PostgreSQL's {@code pg_tables}, {@code information_schema.columns}). */
    public static Builder view(String name, int oid, int namespace) {
        return new Builder(name, oid, namespace, 'v');
    }

    public String name() {
        return name;
    }

    public int oid() {
        return oid;
    }

    public int namespace() {
        return namespace;
    }

    /** {@code relkind}: r for a table, v for a view. */
    public char kind() {
        return kind;
    }

    public List<Column> columns() {
        return columns;
    }

    /** Where the rows' snapshot comes from; set once, when the schema holding the table is made. */
    CatalogTable snapshots(CatalogSnapshots snapshots) {
        this.snapshots = requireNonNull(snapshots, "snapshots is null");
        return this;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory factory) {
        RelDataTypeFactory.Builder row = factory.builder();
        for (Column column : columns) {
            row.add(column.name(), factory.createTypeWithNullability(sqlType(factory, column), true));
        }
        return row.build();
    }

    private static RelDataType sqlType(RelDataTypeFactory factory, Column column) {
        RelDataType element = switch (column.type()) {
            case INT2VECTOR -> factory.createArrayType(factory.createSqlType(SqlTypeName.SMALLINT), -1);
            case OIDVECTOR -> factory.createArrayType(factory.createSqlType(SqlTypeName.INTEGER), -1);
            default -> scalar(factory, column.type());
        };
        return column.array() ? factory.createArrayType(factory.createTypeWithNullability(element, true), -1) : element;
    }

    private static RelDataType scalar(RelDataTypeFactory factory, PgType type) {
        return switch (type) {
            case BOOL -> factory.createSqlType(SqlTypeName.BOOLEAN);
            case INT2 -> factory.createSqlType(SqlTypeName.SMALLINT);
            case INT4, OID, REGCLASS, REGTYPE, REGNAMESPACE -> factory.createSqlType(SqlTypeName.INTEGER);
            case INT8 -> factory.createSqlType(SqlTypeName.BIGINT);
            case FLOAT4 -> factory.createSqlType(SqlTypeName.REAL);
            case FLOAT8 -> factory.createSqlType(SqlTypeName.DOUBLE);
            case TIMESTAMPTZ -> factory.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
            default -> factory.createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE);
        };
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return Linq4j.asEnumerable(rows.apply(snapshots.of(root), root));
    }

    /** Defines a table's columns, then its rows. */
    public static final class Builder {
        private final String name;
        private final int oid;
        private final int namespace;
        private final char kind;
        private final List<Column> columns = new ArrayList<>();

        private Builder(String name, int oid, int namespace, char kind) {
            this.name = name;
            this.oid = oid;
            this.namespace = namespace;
            this.kind = kind;
        }

        public Builder column(String name, PgType type) {
            columns.add(new Column(name, type, false));
            return this;
        }

        public Builder array(String name, PgType element) {
            columns.add(new Column(name, element, true));
            return this;
        }

        /** The table, whose rows {@code rows} computes (values in the columns' order, as Calcite holds them). */
        public CatalogTable rows(Function<CatalogSnapshot, List<Object[]>> rows) {
            return new CatalogTable(name, oid, namespace, kind, columns, (snapshot, root) -> rows.apply(snapshot));
        }

        /** The table, whose rows depend on the statement's session too (its user, its settings). */
        public CatalogTable rows(BiFunction<CatalogSnapshot, DataContext, List<Object[]>> rows) {
            return new CatalogTable(name, oid, namespace, kind, columns, rows);
        }

        /** The table, without rows: what Fluss has none of (sequences, triggers, policies). */
        public CatalogTable empty() {
            return rows((CatalogSnapshot snapshot) -> List.of());
        }
    }
}
