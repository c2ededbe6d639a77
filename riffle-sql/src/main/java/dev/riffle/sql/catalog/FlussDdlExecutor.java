package dev.riffle.sql.catalog;

import dev.riffle.core.exception.InvalidOptionException;
import dev.riffle.core.exception.InvalidStatementException;
import dev.riffle.core.exception.TableNotFoundException;
import dev.riffle.core.schema.TableAlteration;
import dev.riffle.core.types.ColumnTypes;
import dev.riffle.sql.ddl.DdlStatement;
import dev.riffle.sql.ddl.SqlFlussDdl;
import dev.riffle.sql.exec.FlussSession;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.SqlNode;
import org.apache.fluss.exception.DatabaseAlreadyExistException;
import org.apache.fluss.exception.DatabaseNotEmptyException;
import org.apache.fluss.exception.DatabaseNotExistException;
import org.apache.fluss.exception.TableAlreadyExistException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;

/**
 * Runs {@link DdlStatement}s against the connection's Fluss cluster through its admin client.
 *
 * <p>{@code WITH} options of {@code CREATE TABLE} follow Fluss's Flink connector: {@code bucket.num}
 * and {@code bucket.key} (comma-separated) distribute the table, options starting with
 * {@code table.} are table properties (e.g. {@code table.datalake.enabled}), every other option is
 * a custom property.
 */
public final class FlussDdlExecutor implements DdlExecutor {
    public static final FlussDdlExecutor INSTANCE = new FlussDdlExecutor();

    static final String BUCKET_NUM = "bucket.num";
    static final String BUCKET_KEY = "bucket.key";
    private static final long TIMEOUT_SECONDS = 60;

    private FlussDdlExecutor() {}

    @Override
    public void executeDdl(CalcitePrepare.Context context, SqlNode node) {
        if (!(node instanceof SqlFlussDdl ddl)) {
            throw new UnsupportedOperationException("Unsupported statement " + node.getKind()
                    + "; Riffle runs CREATE/DROP DATABASE, CREATE/DROP TABLE and ALTER TABLE");
        }
        if (!(context.getRootSchema().schema instanceof FlussRootSchema root)) {
            throw new IllegalStateException("DDL needs a jdbc:riffle: connection");
        }
        FlussSession session = root.session();
        List<String> defaultSchema = context.getDefaultSchemaPath();
        Optional<String> defaultDatabase = defaultSchema.isEmpty() ? Optional.empty()
                : Optional.of(root.databaseOf(defaultSchema.get(defaultSchema.size() - 1)));
        DdlStatement statement = ddl.statement();
        if (root.dialect() == dev.riffle.sql.dialect.Dialect.POSTGRESQL) {
            statement = statement.inDatabases(root::databaseOf); // public is Fluss's default database
        }
        execute(session, statement, defaultDatabase);
    }

    /** Runs one statement; {@code defaultDatabase} is used for table names without a database. */
    public void execute(FlussSession session, DdlStatement statement, Optional<String> defaultDatabase) {
        try {
            run(session, statement, defaultDatabase);
        } finally {
            session.catalogChanged();
        }
    }

    private void run(FlussSession session, DdlStatement statement, Optional<String> defaultDatabase) {
        if (statement instanceof DdlStatement.CreateDatabase create) {
            DatabaseDescriptor.Builder descriptor = DatabaseDescriptor.builder().customProperties(create.properties());
            create.comment().ifPresent(descriptor::comment);
            run(session.admin().createDatabase(create.name(), descriptor.build(), create.ifNotExists()),
                    "create database " + create.name(), session);
        } else if (statement instanceof DdlStatement.DropDatabase drop) {
            List<String> tables = session.databases().contains(drop.name()) ? session.tables(drop.name()) : List.of();
            run(session.admin().dropDatabase(drop.name(), drop.ifExists(), drop.cascade()),
                    "drop database " + drop.name(), session);
            tables.forEach(table -> session.forget(TablePath.of(drop.name(), table)));
        } else if (statement instanceof DdlStatement.CreateTable create) {
            TablePath path = path(create.database(), create.name(), defaultDatabase, "CREATE TABLE");
            run(session.admin().createTable(path, descriptor(create), create.ifNotExists()),
                    "create table " + path, session);
        } else if (statement instanceof DdlStatement.AlterTable alter) {
            TablePath path = path(alter.database(), alter.name(), defaultDatabase, "ALTER TABLE");
            run(TableAlteration.of(path, changes(alter)).apply(session.admin(), alter.ifExists()),
                    "alter table " + path, session);
            session.forget(path);
        } else if (statement instanceof DdlStatement.CreateIndex index) {
            TablePath path = path(index.database(), index.table(), defaultDatabase, "CREATE INDEX");
            if (session.tableInfo(path).isEmpty()) {
                throw new TableNotFoundException(path, "Cannot create index on " + path + ": Table '" + path
                        + "' not found", new TableNotExistException("Table " + path + " does not exist"));
            }
        } else if (statement instanceof DdlStatement.DropTable drop) {
            TablePath path = path(drop.database(), drop.name(), defaultDatabase, "DROP TABLE");
            run(session.admin().dropTable(path, drop.ifExists()), "drop table " + path, session);
            session.forget(path);
        }
    }

    /** The Fluss table a {@code CREATE TABLE} describes. */
    public static TableDescriptor descriptor(DdlStatement.CreateTable create) {
        Schema.Builder schema = Schema.newBuilder();
        for (DdlStatement.Column column : create.columns()) {
            schema.column(column.name(), ColumnTypes.parse(column.name(), column.type()));
            column.comment().ifPresent(schema::withComment);
        }
        if (!create.primaryKey().isEmpty()) {
            schema.primaryKey(create.primaryKey());
        }
        TableDescriptor.Builder descriptor = TableDescriptor.builder();
        try {
            descriptor.schema(schema.build());
        } catch (RuntimeException e) {
            throw new InvalidStatementException("Invalid table " + create.name() + ": " + e.getMessage(), e);
        }
        Map<String, String> properties = new LinkedHashMap<>();
        Map<String, String> custom = new LinkedHashMap<>();
        Integer buckets = null;
        List<String> bucketKeys = List.of();
        for (Map.Entry<String, String> option : create.options().entrySet()) {
            String key = option.getKey();
            String value = option.getValue();
            if (key.equals(BUCKET_NUM)) {
                try {
                    buckets = Integer.parseInt(value.trim());
                } catch (NumberFormatException e) {
                    throw new InvalidOptionException("Option '" + BUCKET_NUM + "' must be a whole number of buckets, got '"
                            + value + "'");
                }
            } else if (key.equals(BUCKET_KEY)) {
                bucketKeys = new ArrayList<>(Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                        .toList());
            } else if (key.startsWith("table.")) {
                properties.put(key, value);
            } else {
                custom.put(key, value);
            }
        }
        if (buckets != null || !bucketKeys.isEmpty()) {
            descriptor.distributedBy(buckets, bucketKeys);
        }
        if (!create.partitionKeys().isEmpty()) {
            descriptor.partitionedBy(create.partitionKeys());
        }
        descriptor.properties(properties).customProperties(custom);
        create.comment().ifPresent(descriptor::comment);
        try {
            return descriptor.build();
        } catch (RuntimeException e) {
            throw new InvalidStatementException("Invalid table " + create.name() + ": " + e.getMessage(), e);
        }
    }

    /** The Fluss changes an {@code ALTER TABLE} describes. */
    static List<TableChange> changes(DdlStatement.AlterTable alter) {
        List<TableChange> changes = new ArrayList<>();
        for (DdlStatement.Alteration alteration : alter.changes()) {
            if (alteration instanceof DdlStatement.AddColumn add) {
                DdlStatement.Column column = add.column();
                changes.add(TableChange.addColumn(column.name(), ColumnTypes.parse(column.name(), column.type()),
                        column.comment().orElse(null), TableChange.ColumnPosition.last()));
            } else if (alteration instanceof DdlStatement.SetOption set) {
                changes.add(TableChange.set(set.key(), set.value()));
            } else if (alteration instanceof DdlStatement.ResetOption reset) {
                changes.add(TableChange.reset(reset.key()));
            }
        }
        return changes;
    }

    private static TablePath path(Optional<String> database, String table, Optional<String> defaultDatabase,
            String statement) {
        String db = database.or(() -> defaultDatabase).orElseThrow(() -> new IllegalArgumentException(statement + " "
                + table + " names no database: write database." + table + ", or connect with ;schema=DATABASE"));
        return TablePath.of(db, table);
    }

    private static void run(CompletableFuture<Void> future, String what, FlussSession session) {
        try {
            future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalArgumentException("Cannot " + what + ": " + cause.getMessage() + hint(cause, session), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while trying to " + what, e);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot " + what + ": " + e.getMessage(), e);
        }
    }

    private static String hint(Throwable cause, FlussSession session) {
        if (cause instanceof TableAlreadyExistException) {
            return " (CREATE TABLE IF NOT EXISTS skips an existing table)";
        }
        if (cause instanceof DatabaseAlreadyExistException) {
            return " (CREATE DATABASE IF NOT EXISTS skips an existing database)";
        }
        if (cause instanceof TableNotExistException) {
            return " (DROP TABLE IF EXISTS and ALTER TABLE IF EXISTS skip a missing table)";
        }
        if (cause instanceof DatabaseNotExistException) {
            return ". Databases: " + new TreeSet<>(session.databases());
        }
        if (cause instanceof DatabaseNotEmptyException) {
            return " (DROP DATABASE ... CASCADE drops its tables too)";
        }
        return "";
    }
}
