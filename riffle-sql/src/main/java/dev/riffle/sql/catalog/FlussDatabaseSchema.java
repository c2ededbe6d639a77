package dev.riffle.sql.catalog;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidReadException;
import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.exec.FlussSession;
import dev.riffle.sql.plan.ReadPlan;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.SchemaVersion;
import org.apache.calcite.schema.Schemas;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.ViewTable;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypeRoot;

/**
 * One Fluss database as a SQL schema, read live: every lookup asks the cluster, so tables created
 * after connecting are visible and dropped ones disappear. Besides each table {@code t} it
 * resolves {@code t$log}, {@code t$lake} (datalake-enabled tables) and {@code t$changelog}, and
 * for a partitioned table each partition {@code t$p}.
 *
 * <p>An unknown table is an error naming the database's tables rather than a silent miss.
 */
public final class FlussDatabaseSchema implements Schema {
    private final FlussSession session;
    private final String database;
    private final Dialect dialect;
    private final RelFactories.TableScanFactory scans;

    /**
     * @param dialect {@link Dialect#POSTGRESQL}: a table whose name differs only in case is found
     *     when none matches exactly
     * @param scans makes the planner's scan of a table
     */
    public FlussDatabaseSchema(FlussSession session, String database, Dialect dialect,
            RelFactories.TableScanFactory scans) {
        this.session = requireNonNull(session, "session is null");
        this.scans = requireNonNull(scans, "scans is null");
        this.database = requireNonNull(database, "database is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
    }

    @Override
    public Table getTable(String name) {
        String base = name;
        ReadPlan.Source source = ReadPlan.Source.CURRENT;
        for (ReadPlan.Source candidate : ReadPlan.Source.values()) {
            if (!candidate.suffix().isEmpty() && name.endsWith(candidate.suffix())) {
                base = name.substring(0, name.length() - candidate.suffix().length());
                source = candidate;
            }
        }
        Optional<TableInfo> info = session.tableInfo(TablePath.of(database, base));
        if (info.isEmpty() && dialect == Dialect.POSTGRESQL) {
            Optional<String> spelled = Names.ignoringCase(base, session.tables(database));
            if (spelled.isPresent()) {
                base = spelled.get();
                info = session.tableInfo(TablePath.of(database, base));
            }
        }
        if (info.isEmpty() && source == ReadPlan.Source.CURRENT && base.indexOf('$') > 0) {
            Optional<Table> partition = partition(base);
            if (partition.isPresent()) {
                return partition.get();
            }
        }
        if (info.isEmpty()) {
            if (dialect == Dialect.POSTGRESQL) {
                // Calcite goes on along the search path (a schema.table read from the default schema first)
                return null;
            }
            throw unknownTable(name);
        }
        if (source == ReadPlan.Source.LAKE && !info.get().getTableConfig().isDataLakeEnabled()) {
            throw new InvalidReadException("Table " + database + "." + base + " is not datalake-enabled, so it has no "
                    + name + "; use " + base + ", " + base + "$log or " + base + "$changelog");
        }
        return new FlussTable(session, info.get(), source, scans);
    }

    /**
     * {@code t$p}: the rows of partition {@code p} of the partitioned table {@code t} (its values
     * joined by {@code $}, as Fluss names partitions), a view of {@code t} filtered on its partition
     * keys, which the planner then reads from that partition alone. The PostgreSQL catalog lists
     * partitions so; a tool that reads one by that name gets its rows.
     */
    private Optional<Table> partition(String name) {
        String tableName = name.substring(0, name.indexOf('$'));
        String partitionName = name.substring(tableName.length() + 1);
        Optional<TableInfo> table = session.tableInfo(TablePath.of(database, tableName));
        if (table.isEmpty() || !table.get().isPartitioned()) {
            return Optional.empty();
        }
        List<String> keys = table.get().getPartitionKeys();
        String[] values = partitionName.split("\\$", -1);
        if (values.length != keys.size() || FlussSession.await(session.admin().listPartitionInfos(table.get()
                .getTablePath()), "Listing the partitions of " + table.get().getTablePath()).stream()
                .noneMatch(p -> p.getPartitionName().equals(partitionName))) {
            return Optional.empty();
        }
        StringBuilder view = new StringBuilder("SELECT * FROM ").append(quoted(database)).append('.')
                .append(quoted(tableName)).append(" WHERE ");
        for (int i = 0; i < keys.size(); i++) {
            DataTypeRoot type = table.get().getRowType()
                    .getTypeAt(table.get().getRowType().getFieldIndex(keys.get(i))).getTypeRoot();
            boolean text = type == DataTypeRoot.STRING
                    || type == DataTypeRoot.CHAR;
            view.append(i == 0 ? "" : " AND ").append(text ? quoted(keys.get(i))
                    : "CAST(" + quoted(keys.get(i)) + " AS VARCHAR)").append(" = '")
                    .append(values[i].replace("'", "''")).append('\'');
        }
        FlussTable whole = new FlussTable(session, table.get(), ReadPlan.Source.CURRENT, scans);
        return Optional.of(new ViewTable(Object[].class, whole::getRowType,
                view.toString(), List.of(), List.of(database, name)));
    }

    private static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    private IllegalArgumentException unknownTable(String name) {
        List<String> tables = session.tables(database);
        return new IllegalArgumentException("Table '" + name + "' not found in database '" + database
                + "'. Available tables: " + new TreeSet<>(tables)
                + " (each also as t$log, t$changelog, and t$lake when datalake-enabled)");
    }

    /** The tables themselves; their {@code $} views resolve by name but are not listed. */
    @Override
    public Set<String> getTableNames() {
        return new TreeSet<>(session.tables(database));
    }

    @Override
    public RelProtoDataType getType(String name) {
        return null;
    }

    @Override
    public Set<String> getTypeNames() {
        return Set.of();
    }

    @Override
    public Collection<Function> getFunctions(String name) {
        return List.of();
    }

    @Override
    public Set<String> getFunctionNames() {
        return Set.of();
    }

    @Override
    public Schema getSubSchema(String name) {
        return null;
    }

    @Override
    public Set<String> getSubSchemaNames() {
        return Set.of();
    }

    @Override
    public Expression getExpression(SchemaPlus parentSchema, String name) {
        return Schemas.subSchemaExpression(parentSchema, name, getClass());
    }

    @Override
    public boolean isMutable() {
        return false;
    }

    @Override
    public Schema snapshot(SchemaVersion version) {
        return this;
    }
}
