-- Catalog queries of BI and database tools, replayed by ReplayedCatalogQueriesIT against Riffle's
-- PostgreSQL port: each block is one statement, its source, its bind values (JSON; $SCHEMA, $SCHEMA_OID
-- and $TABLE_OID stand for the test's schema and its table orders) and the rows it must answer, each
-- row's values joined by | (NULL as nothing, * for an OID that differs from run to run).
--   expect: a row, in order        expect-unordered: the rows in any order
--   expect-contains: a row among others (the schema lists other tests' schemas too)
--   expect-count: how many rows    (no expect line: no rows)
--   connection: new: from this block on, a new connection (each tool its own session)

-- DBeaver's PostgreSQL navigator (plugins/org.jkiss.dbeaver.ext.postgresql, src/org/jkiss/dbeaver/ext/postgresql/),
-- the catalog queries it sends on connect and when a schema and a table are opened, taken from its public
-- sources (dbeaver/dbeaver, model/*.java named on each), as its JDBC driver (pgjdbc) sends them.
-- ----
-- source: model/PostgreDataSource.java loadAvailableDatabases()/prepareReadDatabaseListStatement() (default: hide templates & unavailable DBs; connection DB name given)
-- binds: ["riffle"]
-- expect: 16383|16383|riffle|10|6|c|f|t|-1|0|0|1663|C|C|||
SELECT db.oid,db.* FROM pg_catalog.pg_database db WHERE 1 = 1 AND datallowconn AND NOT datistemplate OR db.datname =?
ORDER BY db.datname
-- ----
-- source: model/PostgreDataSource.java loadAvailableDatabases()
-- expect: riffle
SELECT current_database()
-- ----
-- source: model/PostgreDataSource.java initialize()
-- expect: PostgreSQL 14.0 (Riffle, over Apache Fluss)
SELECT version()
-- ----
-- source: model/PostgreDataSource.java initialize() -> PostgreUtils.isMetaObjectExists(session, "pg_enum", "*") -> PostgreUtils.getQueryForSystemColumnChecking()
SELECT * FROM pg_catalog.pg_enum WHERE 1<>1 LIMIT 1
-- ----
-- source: model/PostgreDataSource.java initialize() -> PostgreUtils.isMetaObjectExists(session, "pg_class", "reltype")
SELECT reltype FROM pg_catalog.pg_class WHERE 1<>1 LIMIT 1
-- ----
-- source: model/PostgreDatabase.java (read database by name)
-- binds: ["riffle"]
-- expect: 16383|16383|riffle|10|6|c|f|t|-1|0|0|1663|C|C|||
SELECT db.oid,db.* FROM pg_catalog.pg_database db WHERE datname=?
-- ----
-- source: model/PostgreExecutionContext.java refreshDefaults()
-- expect: fluss|riffle
SELECT current_schema(),session_user
-- ----
-- source: model/PostgreExecutionContext.java refreshDefaults()
-- expect: "$user", public
SHOW search_path
-- ----
-- source: model/PostgreExecutionContext.java (when the user changes the active schema; value built from the search path list)
SET search_path = $SCHEMA,public
-- ----
-- source: model/PostgreDatabase.java SchemaCache.prepareLookupStatement() (no schema filter)
-- expect-contains: 13000|13000|information_schema|10||
-- expect-contains: 11|11|pg_catalog|10||
-- expect-contains: *|*|$SCHEMA|10||
SELECT n.oid,n.*,d.description FROM pg_catalog.pg_namespace n
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=n.oid AND d.objsubid=0 AND d.classoid='pg_namespace'::regclass
 ORDER BY nspname
-- ----
-- source: model/PostgreDatabase.java RoleCache.prepareObjectsStatement() (supportsCommentsOnRole)
-- expect: 10|riffle|f|t|f|f|t|f|-1|********||f||10|
SELECT a.oid,a.*,pd.description FROM pg_catalog.pg_roles a 
left join pg_catalog.pg_shdescription pd on a.oid = pd.objoid
ORDER BY a.rolname
-- ----
-- source: model/PostgreDatabase.java AccessMethodCache
-- expect: 2|2|heap|heap_tableam_handler|t
-- expect: 403|403|btree|bthandler|i
SELECT am.oid,am.* FROM pg_catalog.pg_am am 
ORDER BY am.oid
-- ----
-- source: model/PostgreDatabase.java EncodingCache
SELECT c.contoencoding as encid,pg_catalog.pg_encoding_to_char(c.contoencoding) as encname
FROM pg_catalog.pg_conversion c
GROUP BY c.contoencoding
ORDER BY 2
-- ----
-- source: model/PostgreDatabase.java CollationCache
-- expect: 100|100|default|11|10|d|t|-1||||
-- expect: 950|950|C|11|10|c|t|-1|C|C||
SELECT c.oid,c.* FROM pg_catalog.pg_collation c 
ORDER BY c.oid
-- ----
-- source: model/PostgreDatabase.java TablespaceCache (supportsTablespaceLocation)
-- expect: 1663|1663|pg_default|10|||
-- expect: 1664|1664|pg_global|10|||
SELECT t.oid,t.*,pg_tablespace_location(t.oid) loc
FROM pg_catalog.pg_tablespace t 
ORDER BY t.oid
-- ----
-- source: model/PostgreDataTypeCache.java prepareObjectsStatement() (readAllTypes=false, typcategory column supported); getBaseTypeNameClause()
-- binds: [11]
-- expect-count: 56
SELECT t.oid,t.*,c.relkind,format_type(nullif(t.typbasetype, 0), t.typtypmod) as base_type_name, d.description
FROM pg_catalog.pg_type t
LEFT OUTER JOIN pg_catalog.pg_type et ON et.oid=t.typelem 
LEFT OUTER JOIN pg_catalog.pg_class c ON c.oid=t.typrelid
LEFT OUTER JOIN pg_catalog.pg_description d ON t.oid=d.objoid
WHERE t.typname IS NOT NULL
AND (c.relkind IS NULL OR c.relkind = 'c') AND (et.typcategory IS NULL OR et.typcategory <> 'C')
AND t.typnamespace=?
-- ----
-- source: model/PostgreSchema.java TableCache.prepareLookupStatement() (server >= 10; list all tables of a schema: relnamespace = schema oid)
-- binds: ["$SCHEMA_OID"]
-- expect: *|*|c_log|*|0|0|10|2|*|0|0|-1|0|0|f|f|p|r|2|0|f|f|f|f|f|t|d|f|0|0|0||||||
-- expect: *|*|orders|*|0|0|10|2|*|0|0|-1|0|0|t|f|p|r|4|0|f|f|f|f|f|t|d|f|0|0|0||||the orders||
SELECT c.oid,c.*,d.description,pg_catalog.pg_get_expr(c.relpartbound, c.oid) as partition_expr,  pg_catalog.pg_get_partkeydef(c.oid) as partition_key 
FROM pg_catalog.pg_class c
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0 AND d.classoid='pg_class'::regclass
WHERE c.relnamespace=? AND c.relkind not in ('i','I','c')
-- ----
-- source: model/PostgreSchema.java TableCache.prepareChildrenStatement() (columns of one table; supportsSequences)
-- binds: ["$TABLE_OID"]
-- expect: orders|*|id|20|-1|8|1|0|-1|-1|t|i|p||t|f|f|||f|t|0|0|||||||
-- expect: orders|*|region|25|-1|-1|2|0|-1|-1|f|i|x||f|f|f|||f|t|0|100||||||where|
-- expect: orders|*|amount|1700|-1|-1|3|0|-1|655366|f|i|x||f|f|f|||f|t|0|0|||||||
-- expect: orders|*|at|1184|-1|8|4|0|-1|3|t|i|p||f|f|f|||f|t|0|0|||||||
SELECT c.relname,a.*,pg_catalog.pg_get_expr(ad.adbin, ad.adrelid, true) as def_value,dsc.description,dep.objid
FROM pg_catalog.pg_attribute a
INNER JOIN pg_catalog.pg_class c ON (a.attrelid=c.oid)
LEFT OUTER JOIN pg_catalog.pg_attrdef ad ON (a.attrelid=ad.adrelid AND a.attnum = ad.adnum)
LEFT OUTER JOIN pg_catalog.pg_description dsc ON (c.oid=dsc.objoid AND a.attnum = dsc.objsubid)
LEFT OUTER JOIN pg_depend dep on dep.refobjid = a.attrelid AND dep.deptype = 'i' and dep.refobjsubid = a.attnum and dep.classid = dep.refclassid
WHERE NOT a.attisdropped AND c.relkind not in ('i','I','c') AND c.oid=?
ORDER BY a.attnum
-- ----
-- source: model/PostgreSchema.java ConstraintCache.prepareObjectsStatement() (for one table; supportsPGConstraintExpressionColumn)
-- binds: ["$TABLE_OID"]
-- expect: *|*|orders_pkey|*|p|f|f|t|*|0|*|0|0| | | |t|0|t|{1}||||||||orders|||
SELECT c.oid,c.*,t.relname as tabrelname,rt.relnamespace as refnamespace,d.description, case when c.contype='c' then "substring"(pg_get_constraintdef(c.oid), 7) else null end consrc_copy
FROM pg_catalog.pg_constraint c
INNER JOIN pg_catalog.pg_class t ON t.oid=c.conrelid
LEFT OUTER JOIN pg_catalog.pg_class rt ON rt.oid=c.confrelid
LEFT OUTER JOIN pg_catalog.pg_description d ON d.objoid=c.oid AND d.objsubid=0 AND d.classoid='pg_constraint'::regclass
WHERE c.conrelid=?
ORDER BY c.oid
-- ----
-- source: model/PostgreSchema.java IndexCache.prepareObjectsStatement() (for one table; expr indexes + relation size supported)
-- binds: ["$TABLE_OID"]
-- expect: *|*|1|1|t|f|t|f|t|f|t|f|t|t|f|{1}|{0}|{0}|{0}|||{1}|orders_pkey|*|403|0|orders|||||
SELECT i.*,i.indkey as keys,c.relname,c.relnamespace,c.relam,c.reltablespace,tc.relname as tabrelname,dsc.description,pg_catalog.pg_get_expr(i.indpred, i.indrelid) as pred_expr,pg_catalog.pg_get_expr(i.indexprs, i.indrelid, true) as expr,pg_catalog.pg_relation_size(i.indexrelid) as index_rel_size,pg_catalog.pg_stat_get_numscans(i.indexrelid) as index_num_scans
FROM pg_catalog.pg_index i
INNER JOIN pg_catalog.pg_class c ON c.oid=i.indexrelid
INNER JOIN pg_catalog.pg_class tc ON tc.oid=i.indrelid
LEFT OUTER JOIN pg_catalog.pg_description dsc ON i.indexrelid=dsc.objoid
WHERE  i.indrelid=? ORDER BY c.relname
-- ----
-- source: model/PostgreSchema.java (inheritance/partition lookup for a schema)
-- binds: ["$SCHEMA_OID"]
SELECT i.inhrelid relid, pc.relnamespace parent_ns, pc.oid parent_oid, i.inhseqno
FROM pg_catalog.pg_inherits i, pg_class rc, pg_class pc
WHERE rc.oid=i.inhrelid AND rc.relnamespace=? AND pc.oid=i.inhparent
-- ----
-- Grafana's PostgreSQL data source (grafana/grafana), its table and column pickers and its time macros,
-- taken from its public sources (files named on each), with the schema and table a user picks inlined.
-- ----
-- connection: new
-- source: grafana/grafana public/app/plugins/datasource/grafana-postgresql-datasource/postgresMetaQuery.ts getVersion() (stored commit 12f912ab8d010f4d95a4043a0efaa20fc4ca0100)
-- expect: 1400
SELECT current_setting('server_version_num')::int/100 as version
-- ----
-- source: same file, getTimescaleDBVersion()
SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'
-- ----
-- source: same file, showSchemas()
-- expect-contains: fluss
-- expect-contains: $SCHEMA
SELECT schema_name AS "name"
    FROM information_schema.schemata
    WHERE schema_name NOT IN ('information_schema',
                              'pg_catalog',
                              'pg_toast',
                              '_timescaledb_cache',
                              '_timescaledb_catalog',
                              '_timescaledb_internal',
                              '_timescaledb_config',
                              'timescaledb_information',
                              'timescaledb_experimental')
    ORDER BY schema_name
-- ----
-- source: same file, showTables(schema) with schema = 'acc' (table picker after a schema was chosen)
-- expect: c_log
-- expect: orders
SELECT quote_ident(table_name) AS "table"
      FROM information_schema.tables
      WHERE quote_ident(table_schema) = '$SCHEMA'
      ORDER BY 1
-- ----
-- source: same file, showTables() without schema (table picker; used by datasource.ts fetchTables()) -- includes buildSchemaConstraint()
-- expect-contains: $SCHEMA.c_log
-- expect-contains: $SCHEMA.orders
SELECT
    CASE WHEN 
          quote_ident(table_schema) IN (
          SELECT
            CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
          FROM
            generate_series(
              array_lower(string_to_array(current_setting('search_path'),','),1),
              array_upper(string_to_array(current_setting('search_path'),','),1)
            ) as i,
            string_to_array(current_setting('search_path'),',') s
          )
      THEN quote_ident(table_name)
      ELSE quote_ident(table_schema) || '.' || quote_ident(table_name)
    END AS "table"
    FROM information_schema.tables
    WHERE quote_ident(table_schema) NOT IN ('information_schema',
                             'pg_catalog',
                             '_timescaledb_cache',
                             '_timescaledb_catalog',
                             '_timescaledb_internal',
                             '_timescaledb_config',
                             'timescaledb_information',
                             'timescaledb_experimental')
    ORDER BY CASE WHEN 
          quote_ident(table_schema) IN (
          SELECT
            CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
          FROM
            generate_series(
              array_lower(string_to_array(current_setting('search_path'),','),1),
              array_upper(string_to_array(current_setting('search_path'),','),1)
            ) as i,
            string_to_array(current_setting('search_path'),',') s
          ) THEN 0 ELSE 1 END, 1
-- ----
-- source: same file, getSchema(table) with table = 'acc.orders' (column picker; datasource.ts fetchFields())
-- expect: id|bigint
-- expect: region|text
-- expect: amount|numeric
-- expect: at|timestamp with time zone
SELECT quote_ident(column_name) AS "column", data_type AS "type"
    FROM information_schema.columns
    WHERE
      CASE WHEN array_length(parse_ident('$SCHEMA.orders'),1) = 2
        THEN quote_ident(table_schema) = (parse_ident('$SCHEMA.orders'))[1]
          AND quote_ident(table_name) = (parse_ident('$SCHEMA.orders'))[2]
        ELSE quote_ident(table_name) = '$SCHEMA.orders'
          AND 
          quote_ident(table_schema) IN (
          SELECT
            CASE WHEN trim(s[i]) = '"$user"' THEN user ELSE trim(s[i]) END
          FROM
            generate_series(
              array_lower(string_to_array(current_setting('search_path'),','),1),
              array_upper(string_to_array(current_setting('search_path'),','),1)
            ) as i,
            string_to_array(current_setting('search_path'),',') s
          )
      END
-- ----
-- source: grafana/grafana pkg/tsdb/grafana-postgresql-datasource/macros.go (stored commit 02ab314b81e2adc656bd7d08cc0533304a0037ff)
-- expect-unordered
-- expect: 1704103200|us|7.50
-- expect: 1704103200|eu|5.00
-- expect: 1704106800|eu|1.00
SELECT floor(extract(epoch from at)/3600)*3600 AS "time", region AS metric, sum(amount) AS value FROM $SCHEMA.orders WHERE at BETWEEN '2024-01-01T00:00:00Z' AND '2024-01-02T00:00:00Z' GROUP BY 1, 2 ORDER BY 1
-- ----
-- Metabase's PostgreSQL sync (metabase/metabase src/metabase/driver/postgres.clj), describe database and
-- describe table, rendered from its HoneySQL as its JDBC driver (pgjdbc) sends them.
-- ----
-- connection: new
-- source: metabase/metabase src/metabase/driver/postgres.clj (stored version id 603199616, a recent one that uses metabase.driver-api)  driver/db-default-timezone
-- expect: UTC
show timezone;
-- ----
-- source: same file, sql-jdbc.execute/set-timezone-sql (when a report timezone is configured)
SET SESSION TIMEZONE TO 'UTC';
-- ----
-- source: same file, driver.sql/set-role-statement (connection impersonation; default role is NONE)
SET ROLE NONE;
-- ----
-- source: same file, enum-types (describe-fields pre-processing / dynamic-database-types-lookup) -- literal string
SELECT nspname, typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE t.oid IN (SELECT DISTINCT enumtypid FROM pg_enum e)
-- ----
-- source: same file, get-tables-sql (driver/describe-database via describe-syncable-tables), schemas=['acc'] ; HoneySQL, rendered by hand
-- binds: [0, "^pg_", "information_schema", "$SCHEMA"]
-- expect: $SCHEMA|c_log|TABLE||0
-- expect: $SCHEMA|orders|TABLE|the orders|0
SELECT "n"."nspname" AS "schema", "c"."relname" AS "name", CASE "c"."relkind" WHEN 'r' THEN 'TABLE' WHEN 'p' THEN 'PARTITIONED TABLE' WHEN 'v' THEN 'VIEW' WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE NULL END AS "type", "d"."description" AS "description", "stat"."n_live_tup" AS "estimated_row_count" FROM "pg_catalog"."pg_class" AS "c" INNER JOIN "pg_catalog"."pg_namespace" AS "n" ON "c"."relnamespace" = "n"."oid" LEFT JOIN "pg_catalog"."pg_description" AS "d" ON ("c"."oid" = "d"."objoid") AND ("d"."objsubid" = ?) AND ("d"."classoid" = 'pg_class'::regclass) LEFT JOIN "pg_stat_user_tables" AS "stat" ON ("n"."nspname" = "stat"."schemaname") AND ("c"."relname" = "stat"."relname") WHERE ("c"."relnamespace" = "n"."oid") AND ("n"."nspname" !~ ?) AND ("n"."nspname" <> ?) AND c.relkind in ('r', 'p', 'v', 'f', 'm') AND ("n"."nspname" IN (?)) ORDER BY "type" ASC, "schema" ASC, "name" ASC
-- ----
-- source: same file, sql-jdbc.sync/current-user-table-privileges (used by have-select-privilege-fn during describe-database) -- literal string joined with newlines
-- expect-contains: |$SCHEMA|c_log|t|t|t|t
-- expect-contains: |$SCHEMA|orders|t|t|t|t
with table_privileges as (
 select
   NULL as role,
   t.schemaname as schema,
   t.objectname as table,
   pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'update') as update,
   pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'select') as select,
   pg_catalog.has_any_column_privilege(current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'insert') as insert,
   pg_catalog.has_table_privilege(     current_user, '"' || replace(t.schemaname, '"', '""') || '"' || '.' || '"' || replace(t.objectname, '"', '""') || '"',  'delete') as delete
 from (
   select schemaname, tablename as objectname from pg_catalog.pg_tables
   union
   select schemaname, viewname as objectname from pg_catalog.pg_views
   union
   select schemaname, matviewname as objectname from pg_catalog.pg_matviews
 ) t
 where t.schemaname !~ '^pg_'
   and t.schemaname <> 'information_schema'
   and pg_catalog.has_schema_privilege(current_user, t.schemaname, 'usage')
)
select t.*
from table_privileges t
-- ----
-- source: same file, sql-jdbc.sync/describe-fields-sql (describe-table / describe-fields), schema-names=['acc'] table-names=['orders'] ; HoneySQL, rendered by hand
-- binds: ["$SCHEMA", "orders", "$SCHEMA", "orders"]
-- expect: id|int8|0|$SCHEMA|orders|t||t|f
-- expect: region|text|1|$SCHEMA|orders|f|where|f|f
-- expect: amount|numeric|2|$SCHEMA|orders|f||f|f
-- expect: at|timestamptz|3|$SCHEMA|orders|f||f|f
SELECT "c"."column_name" AS "name", CASE WHEN "c"."udt_schema" IN ('public', 'pg_catalog') THEN FORMAT('%s', "c"."udt_name") ELSE FORMAT('"%s"."%s"', "c"."udt_schema", "c"."udt_name") END AS "database-type", "c"."ordinal_position" - 1 AS "database-position", "c"."table_schema" AS "table-schema", "c"."table_name" AS "table-name", "pk"."column_name" IS NOT NULL AS "pk?", COL_DESCRIPTION(CAST(CAST(FORMAT('%I.%I', CAST("c"."table_schema" AS TEXT), CAST("c"."table_name" AS TEXT)) AS REGCLASS) AS OID), "c"."ordinal_position") AS "field-comment", (("column_default" IS NULL) OR (LOWER("column_default") = 'null')) AND ("is_nullable" = 'NO') AND NOT ((("column_default" IS NOT NULL) AND ("column_default" LIKE '%nextval(%')) OR ("is_identity" <> 'NO')) AS "database-required", (("column_default" IS NOT NULL) AND ("column_default" LIKE '%nextval(%')) OR ("is_identity" <> 'NO') AS "database-is-auto-increment" FROM "information_schema"."columns" AS "c" LEFT JOIN (SELECT "tc"."table_schema", "tc"."table_name", "kc"."column_name" FROM "information_schema"."table_constraints" AS "tc" INNER JOIN "information_schema"."key_column_usage" AS "kc" ON ("tc"."constraint_name" = "kc"."constraint_name") AND ("tc"."table_schema" = "kc"."table_schema") AND ("tc"."table_name" = "kc"."table_name") WHERE "tc"."constraint_type" = 'PRIMARY KEY') AS "pk" ON ("c"."table_schema" = "pk"."table_schema") AND ("c"."table_name" = "pk"."table_name") AND ("c"."column_name" = "pk"."column_name") WHERE c.table_schema !~ '^information_schema|catalog_history|pg_' AND ("c"."table_schema" IN (?)) AND ("c"."table_name" IN (?)) UNION ALL SELECT "pa"."attname" AS "name", CASE WHEN "ptn"."nspname" IN ('public', 'pg_catalog') THEN FORMAT('%s', "pt"."typname") ELSE FORMAT('"%s"."%s"', "ptn"."nspname", "pt"."typname") END AS "database-type", "pa"."attnum" - 1 AS "database-position", "pn"."nspname" AS "table-schema", "pc"."relname" AS "table-name", FALSE AS "pk?", NULL AS "field-comment", FALSE AS "database-required", FALSE AS "database-is-auto-increment" FROM "pg_catalog"."pg_class" AS "pc" INNER JOIN "pg_catalog"."pg_namespace" AS "pn" ON "pn"."oid" = "pc"."relnamespace" INNER JOIN "pg_catalog"."pg_attribute" AS "pa" ON "pa"."attrelid" = "pc"."oid" INNER JOIN "pg_catalog"."pg_type" AS "pt" ON "pt"."oid" = "pa"."atttypid" INNER JOIN "pg_catalog"."pg_namespace" AS "ptn" ON "ptn"."oid" = "pt"."typnamespace" WHERE ("pc"."relkind" = 'm') AND ("pa"."attnum" >= 1) AND ("pn"."nspname" IN (?)) AND ("pc"."relname" IN (?)) ORDER BY "table-schema" ASC, "table-name" ASC, "database-position" ASC
-- ----
-- source: same file, sql-jdbc.sync/describe-fks-sql, table-names=['orders'] schema-names=['acc'] ; HoneySQL, rendered by hand
-- binds: ["orders", "$SCHEMA"]
SELECT "fk_ns"."nspname" AS "fk-table-schema", "fk_table"."relname" AS "fk-table-name", "fk_column"."attname" AS "fk-column-name", "pk_ns"."nspname" AS "pk-table-schema", "pk_table"."relname" AS "pk-table-name", "pk_column"."attname" AS "pk-column-name" FROM "pg_constraint" AS "c" INNER JOIN "pg_class" AS "fk_table" ON "c"."conrelid" = "fk_table"."oid" INNER JOIN "pg_namespace" AS "fk_ns" ON "c"."connamespace" = "fk_ns"."oid" INNER JOIN "pg_attribute" AS "fk_column" ON "c"."conrelid" = "fk_column"."attrelid" INNER JOIN "pg_class" AS "pk_table" ON "c"."confrelid" = "pk_table"."oid" INNER JOIN "pg_namespace" AS "pk_ns" ON "pk_table"."relnamespace" = "pk_ns"."oid" INNER JOIN "pg_attribute" AS "pk_column" ON "c"."confrelid" = "pk_column"."attrelid" WHERE fk_ns.nspname !~ '^information_schema|catalog_history|pg_' AND ("c"."contype" = 'f'::char) AND ("fk_column"."attnum" = ANY(c.conkey)) AND ("pk_column"."attnum" = ANY(c.confkey)) AND ("fk_table"."relname" IN (?)) AND ("fk_ns"."nspname" IN (?)) ORDER BY "fk-table-schema" ASC, "fk-table-name" ASC
-- ----
-- source: same file, sql-jdbc.sync/describe-indexes-sql (index sync currently feature-flagged off in the driver) ; HoneySQL, rendered by hand
-- binds: ["$SCHEMA", "orders"]
-- expect: $SCHEMA|orders|id
SELECT "tmp"."table-schema", "tmp"."table-name", TRIM(BOTH '"' FROM PG_CATALOG.PG_GET_INDEXDEF("tmp"."ci_oid", "tmp"."pos", FALSE)) AS "field-name" FROM (SELECT "n"."nspname" AS "table-schema", "ct"."relname" AS "table-name", "ci"."oid" AS "ci_oid", (INFORMATION_SCHEMA._PG_EXPANDARRAY("i"."indkey")).n AS "pos" FROM "pg_catalog"."pg_class" AS "ct" INNER JOIN "pg_catalog"."pg_namespace" AS "n" ON "ct"."relnamespace" = "n"."oid" INNER JOIN "pg_catalog"."pg_index" AS "i" ON "ct"."oid" = "i"."indrelid" INNER JOIN "pg_catalog"."pg_class" AS "ci" ON "ci"."oid" = "i"."indexrelid" WHERE (PG_CATALOG.PG_GET_EXPR("i"."indpred", "i"."indrelid") IS NULL) AND n.nspname !~ '^information_schema|catalog_history|pg_' AND ("n"."nspname" IN (?)) AND ("ct"."relname" IN (?))) AS "tmp" WHERE "tmp"."pos" = 1
-- ----
