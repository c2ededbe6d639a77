package dev.riffle.pgwire.catalog;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A catalog query of psql that Riffle answers from Fluss metadata, as {@link PsqlCatalogQueries}
 * recognized it: which question it asks and what it narrows to (name patterns, and the OID of the
 * table a {@code \d} describes).
 *
 * <pre>{@code
 * CatalogQuery query = PsqlCatalogQueries.recognize(sql).orElseThrow();
 * query.kind();   // RELATIONS for \dt
 * }</pre>
 *
 * @param schema the {@code nspname} pattern, if the query has one
 * @param name the {@code relname} pattern, if the query has one
 * @param oid the table OID the query is about, if it is about one
 * @param relkinds for {@link Kind#RELATIONS}, {@link Kind#RELATIONS_VERBOSE} and {@link Kind#JDBC_TABLES}: the
 *     kinds listed ({@code r} table, {@code p} partitioned table, ...)
 * @param column the {@code attname} pattern, if the query has one
 * @param parameters the patterns the query takes as bound parameters ({@code $n}), filled in by {@link #bind}
 */
public record CatalogQuery(Kind kind, Optional<NamePattern> schema, Optional<NamePattern> name, Optional<Long> oid,
        Set<String> relkinds, Optional<NamePattern> column, List<Parameter> parameters) {

    /** Which pattern a bound parameter is: {@code role} schema, name or column; LIKE pattern or exact name. */
    public record Parameter(String role, int index, boolean like) {
        public Parameter {
            requireNonNull(role, "role is null");
        }
    }

    /** The questions answered. */
    public enum Kind {
        /** {@code \l}: the databases (one: {@code riffle}). */
        DATABASES(List.of("Name", "Owner", "Encoding", "Collate", "Ctype", "ICU Locale", "Locale Provider",
                "Access privileges")),
        /** {@code \l+}: the databases with their size, tablespace and description. */
        DATABASES_VERBOSE(List.of("Name", "Owner", "Encoding", "Collate", "Ctype", "ICU Locale", "Locale Provider",
                "Access privileges", "Size", "Tablespace", "Description")),
        /** {@code \dn}: the schemas (Fluss databases). */
        SCHEMAS(List.of("Name", "Owner")),
        /** {@code \dn+}: the schemas with their privileges and description (the Fluss database's comment). */
        SCHEMAS_VERBOSE(List.of("Name", "Owner", "Access privileges", "Description")),
        /** {@code \dt}, {@code \d}: the relations (Fluss tables). */
        RELATIONS(List.of("Schema", "Name", "Type", "Owner")),
        /** {@code \dt+}, {@code \d+}: the relations with persistence, access method, size and description. */
        RELATIONS_VERBOSE(List.of("Schema", "Name", "Type", "Owner", "Persistence", "Access method", "Size",
                "Description")),
        /** {@code \d name}: the tables a pattern names, with their OIDs. */
        TABLE_LOOKUP(List.of("oid", "nspname", "relname")),
        /** {@code \d name}, second: the table's kind and flags. */
        TABLE_INFO(List.of("relchecks", "relkind", "relhasindex", "relhasrules", "relhastriggers", "relrowsecurity",
                "relforcerowsecurity", "relhasoids", "relispartition", "reloptions", "reltablespace", "reloftype",
                "relpersistence", "relreplident", "amname")),
        /** {@code \d name}: the columns, their types and NOT NULL. */
        COLUMNS(List.of("attname", "format_type", "default", "attnotnull", "attcollation", "attidentity",
                "attgenerated")),
        /** {@code \d+ name}: the columns with their storage, compression, statistics target and description. */
        COLUMNS_VERBOSE(List.of("attname", "format_type", "default", "attnotnull", "attcollation", "attidentity",
                "attgenerated", "attstorage", "attcompression", "attstattarget", "col_description")),
        /** {@code \d name} of a partitioned table: its partition key. */
        PARTITION_KEY(List.of("pg_get_partkeydef")),
        /** {@code \d name}: the indexes; a primary key is index {@code <table>_pkey}. */
        INDEXES(List.of("relname", "indisprimary", "indisunique", "indisclustered", "indisvalid", "pg_get_indexdef",
                "pg_get_constraintdef", "contype", "condeferrable", "condeferred", "indisreplident", "reltablespace")),
        /** pgjdbc's {@code DatabaseMetaData.getTables}. */
        JDBC_TABLES(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS", "TYPE_CAT", "TYPE_SCHEM",
                "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION")),
        /** pgjdbc's {@code DatabaseMetaData.getColumns} (pgjdbc derives the JDBC columns from these). */
        JDBC_COLUMNS(List.of("current_database", "nspname", "relname", "attname", "atttypid", "attnotnull",
                "atttypmod", "attlen", "typtypmod", "attnum", "attidentity", "attgenerated", "adsrc", "description",
                "typbasetype", "typtype")),
        /** pgjdbc's {@code DatabaseMetaData.getPrimaryKeys}. */
        JDBC_PRIMARY_KEYS(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME")),
        /** {@code \d name} of a partitioned table: its partitions. */
        PARTITIONS(List.of("oid", "relkind", "inhdetachpending", "pg_get_expr")),
        /**
         * {@code \d name}: the footers Fluss has nothing for (policies, extended statistics,
         * publications, foreign keys, parent tables): no rows.
         */
        NOTHING(List.of("none"));

        private final List<String> columns;

        Kind(List<String> columns) {
            this.columns = columns;
        }

        /** The columns the answer has, named as psql's query names them. */
        public List<String> columns() {
            return columns;
        }
    }

    public CatalogQuery {
        requireNonNull(kind, "kind is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(name, "name is null");
        requireNonNull(oid, "oid is null");
        relkinds = Set.copyOf(relkinds);
        requireNonNull(column, "column is null");
        parameters = List.copyOf(parameters);
    }

    /** A query with the schema and name patterns written into it (psql's). */
    public CatalogQuery(Kind kind, Optional<NamePattern> schema, Optional<NamePattern> name, Optional<Long> oid,
            Set<String> relkinds) {
        this(kind, schema, name, oid, relkinds, Optional.empty(), List.of());
    }

    static CatalogQuery of(Kind kind) {
        return new CatalogQuery(kind, Optional.empty(), Optional.empty(), Optional.empty(), Set.of());
    }

    /**
     * The query with its parameters' values as patterns (a LIKE pattern's {@code %} and {@code _},
     * or an exact name); a NULL value matches everything.
     *
     * @param values the bound values, {@code values.get(0)} is {@code $1}
     */
    public CatalogQuery bind(List<Optional<String>> values) {
        Optional<NamePattern> boundSchema = schema;
        Optional<NamePattern> boundName = name;
        Optional<NamePattern> boundColumn = column;
        for (Parameter parameter : parameters) {
            Optional<NamePattern> pattern = parameter.index() <= values.size()
                    ? values.get(parameter.index() - 1).map(v -> parameter.like() ? NamePattern.like(v) : NamePattern.exact(v))
                    : Optional.empty();
            switch (parameter.role()) {
                case "schema" -> boundSchema = pattern;
                case "name" -> boundName = pattern;
                default -> boundColumn = pattern;
            }
        }
        return new CatalogQuery(kind, boundSchema, boundName, oid, relkinds, boundColumn, List.of());
    }
}
