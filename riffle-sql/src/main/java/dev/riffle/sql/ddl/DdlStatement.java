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

    /** {@code DROP TABLE [IF EXISTS] [db.]t}. */
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
