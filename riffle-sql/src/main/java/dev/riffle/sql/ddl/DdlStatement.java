package dev.riffle.sql.ddl;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A DDL statement Riffle runs against Fluss, as parsed by {@link DdlParser}. Names are as written
 * (Fluss names are case-sensitive); a table name without a database uses the connection's schema.
 */
public sealed interface DdlStatement {
    /**
     * This statement with the database names it gives for tables mapped by {@code database} (the
     * PostgreSQL dialect's {@code public} is Fluss's default database); databases it creates or
     * drops by name stay as written.
     */
    default DdlStatement inDatabases(java.util.function.UnaryOperator<String> database) {
        if (this instanceof CreateTable t) {
            return new CreateTable(t.database().map(database), t.name(), t.ifNotExists(), t.columns(), t.primaryKey(),
                    t.partitionKeys(), t.comment(), t.options());
        }
        if (this instanceof DropTable t) {
            return new DropTable(t.database().map(database), t.name(), t.ifExists());
        }
        if (this instanceof AlterTable t) {
            return new AlterTable(t.database().map(database), t.name(), t.ifExists(), t.changes());
        }
        if (this instanceof CreateIndex i) {
            return new CreateIndex(i.name(), i.database().map(database), i.table());
        }
        return this;
    }

    /**
     * What running this statement tells its client besides success (PostgreSQL's NOTICE): that a
     * statement kept for the tools that send it did nothing.
     */
    default Optional<String> notice() {
        if (this instanceof CreateIndex i) {
            return Optional.of("Fluss has no secondary indexes: CREATE INDEX" + i.name().map(n -> " " + n).orElse("")
                    + " on " + i.database().map(d -> d + ".").orElse("") + i.table() + " did nothing (a read by the"
                    + " whole primary key is a lookup; other reads scan)");
        }
        if (this instanceof DropIndex i) {
            return Optional.of("Fluss has no secondary indexes: DROP INDEX " + i.name() + " did nothing");
        }
        return Optional.empty();
    }

    /**
     * {@code CREATE INDEX [IF NOT EXISTS] [name] ON [db.]t (...)}: Fluss has no secondary indexes,
     * so it does nothing but check the table exists (a {@link #notice} says so). Tools and test
     * suites send it; refusing it would stop them for nothing a read could use.
     */
    record CreateIndex(Optional<String> name, Optional<String> database, String table) implements DdlStatement {
        public CreateIndex {
            requireNonNull(name, "name is null");
            requireNonNull(database, "database is null");
            requireNonNull(table, "table is null");
        }
    }

    /** {@code DROP INDEX [IF EXISTS] name}: as {@link CreateIndex} made nothing, nothing to drop. */
    record DropIndex(String name) implements DdlStatement {
        public DropIndex {
            requireNonNull(name, "name is null");
        }
    }

    /** {@code CREATE DATABASE|SCHEMA [IF NOT EXISTS] db [COMMENT '...'] [WITH (...)]}. */
    record CreateDatabase(String name, boolean ifNotExists, Optional<String> comment, Map<String, String> properties)
            implements DdlStatement {
        public CreateDatabase {
            requireNonNull(name, "name is null");
            requireNonNull(comment, "comment is null");
            properties = Map.copyOf(properties);
        }
    }

    /** {@code DROP DATABASE|SCHEMA [IF EXISTS] db [RESTRICT|CASCADE]}; RESTRICT (the default) refuses a database with tables. */
    record DropDatabase(String name, boolean ifExists, boolean cascade) implements DdlStatement {
        public DropDatabase {
            requireNonNull(name, "name is null");
        }
    }

    /**
     * {@code CREATE TABLE [IF NOT EXISTS] [db.]t (col type [NOT NULL] [COMMENT '...'], ...,
     * [PRIMARY KEY (a, ...) [NOT ENFORCED]]) [COMMENT '...'] [PARTITIONED BY (p, ...)] [WITH ('k'='v', ...)]}.
     *
     * @param database empty when the statement names none
     * @param columns in declaration order, each with its Fluss type string ({@code DataTypeParser}'s syntax)
     * @param options the {@code WITH} clause, in order
     */
    record CreateTable(Optional<String> database, String name, boolean ifNotExists, List<Column> columns,
            List<String> primaryKey, List<String> partitionKeys, Optional<String> comment, Map<String, String> options)
            implements DdlStatement {
        public CreateTable {
            requireNonNull(database, "database is null");
            requireNonNull(name, "name is null");
            columns = List.copyOf(columns);
            primaryKey = List.copyOf(primaryKey);
            partitionKeys = List.copyOf(partitionKeys);
            requireNonNull(comment, "comment is null");
            options = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(options));
        }
    }

    /** One column of {@link CreateTable}. */
    record Column(String name, String type, Optional<String> comment) {
        public Column {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
            requireNonNull(comment, "comment is null");
        }
    }

    /** {@code DROP TABLE [IF EXISTS] [db.]t [CASCADE|RESTRICT]} (nothing in Fluss depends on a table). */
    record DropTable(Optional<String> database, String name, boolean ifExists) implements DdlStatement {
        public DropTable {
            requireNonNull(database, "database is null");
            requireNonNull(name, "name is null");
        }
    }

    /**
     * {@code ALTER TABLE [IF EXISTS] [db.]t ADD ... | SET (...) | RESET (...)}: one statement's
     * changes, applied by Fluss together or not at all.
     *
     * @param database empty when the statement names none
     */
    record AlterTable(Optional<String> database, String name, boolean ifExists, List<Alteration> changes)
            implements DdlStatement {
        public AlterTable {
            requireNonNull(database, "database is null");
            requireNonNull(name, "name is null");
            changes = List.copyOf(changes);
        }
    }

    /** One change of {@link AlterTable}. */
    sealed interface Alteration {}

    /** {@code ADD [COLUMN] c type [COMMENT '...']}: Fluss adds it last, and it must be nullable. */
    record AddColumn(Column column) implements Alteration {
        public AddColumn {
            requireNonNull(column, "column is null");
        }
    }

    /** {@code SET ('k' = 'v')}: a table property ({@code table.*}) or a custom property. */
    record SetOption(String key, String value) implements Alteration {
        public SetOption {
            requireNonNull(key, "key is null");
            requireNonNull(value, "value is null");
        }
    }

    /** {@code RESET ('k')}: back to the default. */
    record ResetOption(String key) implements Alteration {
        public ResetOption {
            requireNonNull(key, "key is null");
        }
    }
}
