package dev.riffle.sql.pgcatalog;

import dev.riffle.core.exception.InvalidTypeException;
import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.sql.dialect.PgType;
import dev.riffle.sql.dialect.PostgresRelease;
import dev.riffle.sql.dialect.PublicSchema;
import dev.riffle.sql.exec.ContextFunction;
import dev.riffle.sql.exec.GuardedText;
import dev.riffle.sql.pgcatalog.CatalogSnapshot.Relation;
import dev.riffle.sql.statement.ExecutionGuard;
import dev.riffle.sql.statement.SessionHost;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.schema.impl.ScalarFunctionImpl;
import org.apache.calcite.schema.impl.TableFunctionImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's functions that tools call on the catalogs and that Calcite's PostgreSQL library
 * lacks, each answering from the statement's {@link CatalogSnapshot} and session as PostgreSQL
 * would: {@code format_type}, {@code pg_get_indexdef}, {@code pg_get_constraintdef},
 * {@code obj_description}, {@code pg_table_is_visible}, {@code current_schema},
 * {@code current_schemas}, {@code version}, the size and privilege functions, the {@code reg*}
 * conversions casts become, and the array helpers. Privileges are Fluss's: the functions answer
 * true, and a statement that reads or writes a table the user may not is refused by Fluss.
 *
 * <pre>{@code
 * SELECT pg_catalog.format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute a
 * }</pre>
 *
 * <p>Strict, as PostgreSQL's are: a NULL argument makes the call NULL.
 */
@Strict
public final class PgFunctions {
    private static final Map<String, List<Function>> FUNCTIONS = functions();
    private static final Map<String, List<Function>> INFORMATION_SCHEMA = Map.of();

    private PgFunctions() {}

    /** The functions called {@code name}. */
    static Collection<Function> named(String name) {
        return FUNCTIONS.getOrDefault(name, List.of());
    }

    static Set<String> names() {
        return FUNCTIONS.keySet();
    }

    static Collection<Function> informationSchema(String name) {
        return INFORMATION_SCHEMA.getOrDefault(name, List.of());
    }

    static Set<String> informationSchemaNames() {
        return INFORMATION_SCHEMA.keySet();
    }

    private static Map<String, List<Function>> functions() {
        Map<String, List<Function>> functions = new HashMap<>();
        context(functions, "format_type", "formatType", SqlTypeName.VARCHAR, SqlTypeName.INTEGER, SqlTypeName.INTEGER);
        plain(functions, "pg_get_expr", "getExpr");
        plain(functions, "shobj_description", "shobjDescription");
        plain(functions, "pg_encoding_to_char", "encodingToChar");
        plain(functions, "quote_ident", "quoteIdent");
        plain(functions, "format", "format");
        plain(functions, "pg_size_pretty", "sizePretty");
        plain(functions, "pg_relation_size", "relationSize");
        plain(functions, "pg_total_relation_size", "relationSize");
        plain(functions, "pg_table_size", "relationSize");
        plain(functions, "pg_indexes_size", "relationSize");
        plain(functions, "pg_database_size", "relationSize");
        plain(functions, "pg_is_in_recovery", "isInRecovery");
        plain(functions, "has_table_privilege", "hasPrivilege");
        plain(functions, "has_schema_privilege", "hasPrivilege");
        plain(functions, "has_database_privilege", "hasPrivilege");
        plain(functions, "has_any_column_privilege", "hasPrivilege");
        plain(functions, "has_column_privilege", "hasPrivilege");
        plain(functions, "pg_type_is_visible", "visible");
        plain(functions, "pg_function_is_visible", "visible");
        plain(functions, "pg_get_viewdef", "noDefinition");
        plain(functions, "pg_get_function_result", "noDefinition");
        plain(functions, "pg_get_function_arguments", "noDefinition");
        plain(functions, "pg_get_function_identity_arguments", "noDefinition");
        plain(functions, "pg_get_serial_sequence", "noDefinition");
        plain(functions, "pg_get_statisticsobjdef_columns", "noDefinition");
        plain(functions, "pg_get_triggerdef", "noDefinition");
        plain(functions, "pg_get_ruledef", "noDefinition");
        plain(functions, "pg_tablespace_location", "tablespaceLocation");
        plain(functions, "pg_stat_get_numscans", "relationSize");
        plain(functions, "pg_relation_is_publishable", "notPublishable");
        plain(functions, "current_database", "currentDatabase");
        plain(functions, "version", "version");
        plain(functions, "array_to_string", "arrayToString");
        plain(functions, "array_upper", "arrayUpper");
        plain(functions, "array_lower", "arrayLower");
        plain(functions, "array_length", "arrayLength");
        plain(functions, "txid_current", "txidCurrent");
        context(functions, "pg_get_userbyid", "userById", SqlTypeName.VARCHAR, SqlTypeName.INTEGER);
        context(functions, "pg_table_is_visible", "tableIsVisible", SqlTypeName.BOOLEAN, SqlTypeName.INTEGER);
        context(functions, "pg_get_indexdef", "indexDefinition", SqlTypeName.VARCHAR, SqlTypeName.INTEGER);
        context(functions, "pg_get_indexdef", "indexDefinition", SqlTypeName.VARCHAR, SqlTypeName.INTEGER,
                SqlTypeName.INTEGER, SqlTypeName.BOOLEAN);
        context(functions, "pg_get_constraintdef", "constraintDefinition", SqlTypeName.VARCHAR, SqlTypeName.INTEGER);
        context(functions, "pg_get_constraintdef", "constraintDefinition", SqlTypeName.VARCHAR, SqlTypeName.INTEGER,
                SqlTypeName.BOOLEAN);
        context(functions, "pg_get_partkeydef", "partitionKeyDefinition", SqlTypeName.VARCHAR, SqlTypeName.INTEGER);
        context(functions, "obj_description", "objectDescription", SqlTypeName.VARCHAR, SqlTypeName.INTEGER);
        context(functions, "obj_description", "objectDescription", SqlTypeName.VARCHAR, SqlTypeName.INTEGER,
                SqlTypeName.VARCHAR);
        context(functions, "col_description", "columnDescription", SqlTypeName.VARCHAR, SqlTypeName.INTEGER,
                SqlTypeName.INTEGER);
        context(functions, "current_schema", "currentSchema", SqlTypeName.VARCHAR);
        functions.computeIfAbsent("parse_ident", n -> new ArrayList<>()).add(new ContextFunction(
                PgFunctions.class, "parseIdent", factory -> factory.createArrayType(
                        factory.createSqlType(SqlTypeName.VARCHAR), -1), SqlTypeName.VARCHAR));
        functions.computeIfAbsent("current_schemas", n -> new ArrayList<>()).add(new ContextFunction(
                PgFunctions.class, "currentSchemas", factory -> factory.createArrayType(
                        factory.createSqlType(SqlTypeName.VARCHAR), -1), SqlTypeName.BOOLEAN));
        context(functions, "regclass", "regclass", SqlTypeName.INTEGER, SqlTypeName.VARCHAR);
        context(functions, "regclass_name", "regclassName", SqlTypeName.VARCHAR, SqlTypeName.INTEGER);
        context(functions, "regnamespace", "regnamespace", SqlTypeName.INTEGER, SqlTypeName.VARCHAR);
        context(functions, "pg_regex_match", "regexMatch", SqlTypeName.BOOLEAN, SqlTypeName.VARCHAR,
                SqlTypeName.VARCHAR, SqlTypeName.BOOLEAN);
        plain(functions, "regtype", "regtype");
        plain(functions, "regproc", "regproc");
        for (Method method : PgFunctions.class.getMethods()) {
            if (method.getName().equals("partitionAncestors")) {
                functions.computeIfAbsent("pg_partition_ancestors", n -> new ArrayList<>())
                        .add(TableFunctionImpl.create(method));
            }
            if (method.getName().equals("generateSeries")) {
                functions.computeIfAbsent("generate_series", n -> new ArrayList<>())
                        .add(TableFunctionImpl.create(method));
            }
        }
        return Map.copyOf(functions);
    }

    private static void plain(Map<String, List<Function>> functions, String name, String method) {
        for (Method candidate : PgFunctions.class.getMethods()) {
            if (candidate.getName().equals(method) && Modifier.isStatic(candidate.getModifiers())
                    && (candidate.getParameterCount() == 0 || candidate.getParameterTypes()[0] != DataContext.class)) {
                functions.computeIfAbsent(name, n -> new ArrayList<>()).add(ScalarFunctionImpl.create(candidate));
            }
        }
    }

    private static void context(Map<String, List<Function>> functions, String name, String method, SqlTypeName returns,
            SqlTypeName... parameters) {
        functions.computeIfAbsent(name, n -> new ArrayList<>())
                .add(new ContextFunction(PgFunctions.class, method, returns, parameters));
    }

    // ---- functions of the values alone

    /** Not strict: pgjdbc asks {@code format_type(p.prorettype, NULL)}, a type without its modifier. */
    public static String formatType(DataContext root, Integer oid, Integer typmod) {
        if (oid == null) {
            return null;
        }
        return PgColumnType.formatType(oid, typmod == null ? -1 : typmod);
    }

    /** Riffle keeps no expression trees (no column defaults, index expressions or predicates): the text as it is. */
    public static String getExpr(String tree, int relation) {
        return tree;
    }

    public static String getExpr(String tree, int relation, boolean pretty) {
        return tree;
    }

    public static String shobjDescription(int oid, String catalog) {
        return null;
    }

    public static String encodingToChar(int encoding) {
        return encoding == 6 ? "UTF8" : encoding == 0 ? "SQL_ASCII" : "";
    }

    public static String quoteIdent(String name) {
        return PgDefinitions.quote(name);
    }

    /** {@code format(text, ...)}: {@code %s} a value as text, {@code %I} an identifier, {@code %L} a literal, {@code %%}. */
    public static String format(String format, Object a) {
        return PgFormat.format(format, a);
    }

    public static String format(String format, Object a, Object b) {
        return PgFormat.format(format, a, b);
    }

    public static String format(String format, Object a, Object b, Object c) {
        return PgFormat.format(format, a, b, c);
    }

    public static String format(String format, Object a, Object b, Object c, Object d) {
        return PgFormat.format(format, a, b, c, d);
    }

    public static String sizePretty(long bytes) {
        return PgDefinitions.prettySize(bytes);
    }

    /**
     * Fluss keeps a table's size with its tablet servers and its lake, not in the catalog: unknown
     * (NULL; psql's {@code \dt+} shows no size rather than a false 0).
     */
    public static Long relationSize(int oid) {
        return null;
    }

    public static Long relationSize(String name) {
        return null;
    }

    public static boolean isInRecovery() {
        return false;
    }

    public static boolean hasPrivilege(String object, String privilege) {
        return true;
    }

    public static boolean hasPrivilege(int oid, String privilege) {
        return true;
    }

    public static boolean hasPrivilege(String user, String object, String privilege) {
        return true;
    }

    public static boolean hasPrivilege(String user, int oid, String privilege) {
        return true;
    }

    public static boolean hasPrivilege(int oid, String column, String privilege) {
        return true;
    }

    public static boolean visible(int oid) {
        return true;
    }

    public static String noDefinition(int oid) {
        return null;
    }

    public static String noDefinition(int oid, boolean pretty) {
        return null;
    }

    public static String noDefinition(String table, String column) {
        return null;
    }

    public static String tablespaceLocation(int oid) {
        return "";
    }

    public static boolean notPublishable(int oid) {
        return false;
    }

    public static String currentDatabase() {
        return PgSessions.DATABASE;
    }

    public static String version() {
        return "PostgreSQL " + PostgresRelease.VERSION + " (Riffle, over Apache Fluss)";
    }

    /** {@code array_to_string(array, delimiter)}: the elements' text, nulls left out. */
    public static String arrayToString(Object array, String delimiter) {
        List<Object> elements = elements(array);
        StringBuilder text = new StringBuilder();
        for (Object element : elements) {
            if (element == null) {
                continue;
            }
            if (!text.isEmpty()) {
                text.append(delimiter);
            }
            text.append(element);
        }
        return text.toString();
    }

    public static Integer arrayUpper(Object array, int dimension) {
        int size = elements(array).size();
        return dimension != 1 || size == 0 ? null : size;
    }

    public static Integer arrayLower(Object array, int dimension) {
        return dimension != 1 || elements(array).isEmpty() ? null : 1;
    }

    public static Integer arrayLength(Object array, int dimension) {
        int size = elements(array).size();
        return dimension != 1 || size == 0 ? null : size;
    }

    private static List<Object> elements(Object array) {
        if (array instanceof List<?> list) {
            return new ArrayList<>(list);
        }
        if (array != null && array.getClass().isArray()) {
            List<Object> elements = new ArrayList<>();
            for (int i = 0; i < Array.getLength(array); i++) {
                elements.add(Array.get(array, i));
            }
            return elements;
        }
        throw new InvalidTypeException("Not an array: " + array);
    }

    /**
     * {@code pg_partition_ancestors(rel)}: the relation and the tables it is a partition of, as
     * {@code relid}s: a partition {@code t$p}, then its table.
     */
    public static ScannableTable partitionAncestors(String relation) {
        return new Ancestors(relation);
    }

    private static final class Ancestors extends AbstractTable
            implements ScannableTable {
        private final String relation;

        Ancestors(String relation) {
            this.relation = relation;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory factory) {
            return factory.builder().add("relid", SqlTypeName.INTEGER).build();
        }

        @Override
        public Enumerable<Object[]> scan(DataContext root) {
            if (relation == null) {
                return Linq4j.emptyEnumerable();
            }
            List<Object[]> ancestors = new ArrayList<>();
            Optional<Relation> next = snapshot(root).relation(regclass(root, relation));
            while (next.isPresent()) {
                ancestors.add(new Object[] {next.get().oid()});
                next = next.get().partition().flatMap(p -> snapshot(root).relation(p.parent()));
            }
            return Linq4j.asEnumerable(ancestors);
        }
    }

    /**
     * {@code generate_series(start, stop)}: the integers from start to stop, one a row; none when
     * an argument is NULL. (The arguments are boxed: the planner asks for the series' columns
     * before it knows arguments that are not constants.)
     */
    public static ScannableTable generateSeries(Integer start, Integer stop) {
        return generateSeries(start, stop, 1);
    }

    /** {@code generate_series(start, stop, step)}: every step-th integer from start to stop (step not 0). */
    public static ScannableTable generateSeries(Integer start, Integer stop, Integer step) {
        return start == null || stop == null || step == null ? Series.NONE_INTEGER
                : new Series(start, stop, step, true);
    }

    /** {@code generate_series(start, stop)} of {@code bigint}s. */
    public static ScannableTable generateSeries(Long start, Long stop) {
        return generateSeries(start, stop, 1L);
    }

    /** {@code generate_series(start, stop, step)} of {@code bigint}s. */
    public static ScannableTable generateSeries(Long start, Long stop, Long step) {
        return start == null || stop == null || step == null ? Series.NONE_BIGINT
                : new Series(start, stop, step, false);
    }

    /**
     * The rows of {@link #generateSeries}, made as they are read (a series of a trillion is read, not
     * held). As in PostgreSQL, a series of {@code integer}s is {@code integer} (pgjdbc subscripts
     * arrays with it: {@code con.conkey[pos.n]}), one of {@code bigint}s {@code bigint}.
     */
    private static final class Series extends AbstractTable
            implements ScannableTable {
        private final long start;
        private final long stop;
        private final long step;
        private final boolean integers;

        static final Series NONE_INTEGER = new Series(1, 0, 1, true);
        static final Series NONE_BIGINT = new Series(1, 0, 1, false);

        Series(long start, long stop, long step, boolean integers) {
            if (step == 0) {
                throw new InvalidValueException("step size cannot equal zero");
            }
            this.start = start;
            this.stop = stop;
            this.step = step;
            this.integers = integers;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory factory) {
            return factory.builder().add("generate_series", integers ? SqlTypeName.INTEGER : SqlTypeName.BIGINT)
                    .build();
        }

        @Override
        public Enumerable<Object[]> scan(DataContext root) {
            return new AbstractEnumerable<>() {
                @Override
                public Enumerator<Object[]> enumerator() {
                    return new Enumerator<>() {
                        private long next = start;
                        private boolean ended;
                        private Object[] current;

                        @Override
                        public Object[] current() {
                            return current;
                        }

                        @Override
                        public boolean moveNext() {
                            if (ended || (step > 0 ? next > stop : next < stop)) {
                                return false;
                            }
                            current = new Object[] {integers ? (Object) (int) next : (Object) next};
                            try {
                                next = Math.addExact(next, step);
                            } catch (ArithmeticException pastLongRange) {
                                ended = true;
                            }
                            return true;
                        }

                        @Override
                        public void reset() {
                            next = start;
                            ended = false;
                        }

                        @Override
                        public void close() {}
                    };
                }
            };
        }
    }

    public static long txidCurrent() {
        throw new UnsupportedOperationException("Riffle has no transactions: txid_current() is not supported (each"
                + " statement's writes are acknowledged by Fluss on their own)");
    }

    /** {@code 'int4'::regtype}: a type's OID by its name ({@code pg_catalog.} prefix and PostgreSQL's long names taken). */
    public static int regtype(String name) {
        String type = name.strip().toLowerCase(Locale.ROOT).replaceFirst("^pg_catalog\\.", "");
        Map<String, String> aliases = Map.of("integer", "int4", "int", "int4", "bigint", "int8", "smallint", "int2",
                "boolean", "bool", "real", "float4", "double precision", "float8", "character varying", "varchar",
                "timestamp without time zone", "timestamp", "timestamp with time zone", "timestamptz");
        String canonical = aliases.getOrDefault(type, type);
        if (canonical.endsWith("[]")) {
            return PgType.named(canonical.substring(0, canonical.length() - 2)).map(PgType::arrayOid)
                    .orElseThrow(() -> new IllegalArgumentException("type \"" + name + "\" does not exist"));
        }
        return PgType.named(canonical).map(PgType::oid)
                .orElseThrow(() -> new IllegalArgumentException("type \"" + name + "\" does not exist"));
    }

    public static int regtype(int oid) {
        return oid;
    }

    /** {@code 'pg_catalog.array_in'::regproc}: a function's name, as {@code pg_type.typinput} holds it. */
    public static String regproc(String name) {
        return name.strip().replaceFirst("^pg_catalog\\.", "");
    }

    // ---- functions of the catalog and the session

    public static String userById(DataContext root, int oid) {
        return PgSessions.user(root);
    }

    /** Whether a relation is in a schema of the search path (or {@code pg_catalog}). */
    public static boolean tableIsVisible(DataContext root, int oid) {
        Optional<Relation> relation = snapshot(root).relation(oid);
        if (relation.isEmpty()) {
            return false;
        }
        String schema = relation.get().namespace().name();
        return schema.equals(PgCatalogSchema.NAME) || searchPath(root).stream().anyMatch(schema::equalsIgnoreCase);
    }

    public static String indexDefinition(DataContext root, int oid) {
        return PgDefinitions.index(snapshot(root), oid);
    }

    public static String indexDefinition(DataContext root, int oid, int column, boolean pretty) {
        return PgDefinitions.index(snapshot(root), oid, column);
    }

    public static String constraintDefinition(DataContext root, int oid) {
        return PgDefinitions.constraint(snapshot(root), oid);
    }

    public static String constraintDefinition(DataContext root, int oid, boolean pretty) {
        return PgDefinitions.constraint(snapshot(root), oid);
    }

    public static String partitionKeyDefinition(DataContext root, int oid) {
        return PgDefinitions.partitionKey(snapshot(root), oid);
    }

    public static String objectDescription(DataContext root, int oid) {
        return snapshot(root).relation(oid).flatMap(Relation::comment).orElse(null);
    }

    public static String objectDescription(DataContext root, int oid, String catalog) {
        return catalog == null ? null : switch (catalog) {
            case "pg_class" -> objectDescription(root, oid);
            case "pg_namespace" -> snapshot(root).namespace(oid).flatMap(snapshot(root)::comment).orElse(null);
            default -> null;
        };
    }

    public static String columnDescription(DataContext root, int oid, int column) {
        return snapshot(root).relation(oid).filter(r -> column >= 1 && column <= r.attributes().size())
                .flatMap(r -> r.attributes().get(column - 1).comment()).orElse(null);
    }

    /** The first schema of the search path that exists (PostgreSQL's {@code current_schema()}). */
    public static String currentSchema(DataContext root) {
        CatalogSnapshot snapshot = snapshot(root);
        for (String schema : searchPath(root)) {
            if (snapshot.namespaces().stream().anyMatch(n -> n.name().equals(schema))) {
                return schema;
            }
        }
        return null;
    }

    /** {@code parse_ident('shop."Orders"')}: a qualified name's parts, unquoted parts in lower case. */
    public static List<String> parseIdent(DataContext root, String name) {
        return QualifiedName.parse(name.strip());
    }

    /**
     * The schemas of the search path that exist, in its order; with {@code implicit}, led by
     * {@code pg_catalog}, which PostgreSQL searches first when the path does not name it.
     */
    public static List<String> currentSchemas(DataContext root, boolean implicit) {
        CatalogSnapshot snapshot = snapshot(root);
        List<String> schemas = new ArrayList<>();
        List<String> path = searchPath(root);
        if (implicit && !path.contains(PgCatalogSchema.NAME)) {
            schemas.add(PgCatalogSchema.NAME);
        }
        for (String schema : path) {
            if (snapshot.namespaces().stream().anyMatch(n -> n.name().equals(schema))) {
                schemas.add(schema);
            }
        }
        return schemas;
    }

    /**
     * {@code text ~ pattern} ({@code ~*} with {@code ignoreCase}): whether the pattern is found in
     * the text. The match reads the text through the statement's guard (a pattern that backtracks
     * without end stops at the deadline); patterns are compiled once for a while.
     */
    public static Boolean regexMatch(DataContext root, String text, String pattern, boolean ignoreCase) {
        if (text == null || pattern == null) {
            return null;
        }
        Pattern compiled = RegexPatterns.compile(pattern, ignoreCase);
        return compiled.matcher(new GuardedText(text, ExecutionGuard.of(root))).find();
    }

    /** {@code 'shop.orders'::regclass}: a relation's OID by its (qualified) name, or the OID written as text. */
    public static Integer regclass(DataContext root, String name) {
        if (name == null) {
            return null;
        }
        String text = name.strip();
        if (!text.isEmpty() && text.chars().allMatch(Character::isDigit)) {
            return Integer.parseInt(text);
        }
        List<String> parts = QualifiedName.parse(text);
        Optional<String> schema = parts.size() > 1 ? Optional.of(parts.get(parts.size() - 2)) : Optional.empty();
        return snapshot(root).relation(schema, parts.get(parts.size() - 1), searchPath(root)).map(Relation::oid)
                .orElseThrow(() -> new IllegalArgumentException("relation \"" + name + "\" does not exist"));
    }

    /** {@code oid::regclass::text}: the relation's name, qualified when it is not on the search path. */
    public static String regclassName(DataContext root, int oid) {
        Optional<Relation> relation = snapshot(root).relation(oid);
        if (relation.isEmpty()) {
            return Integer.toString(oid);
        }
        return tableIsVisible(root, oid) ? PgDefinitions.quote(relation.get().name())
                : PgDefinitions.qualified(relation.get());
    }

    /** {@code 'shop'::regnamespace}: a schema's OID by its name. */
    public static Integer regnamespace(DataContext root, String name) {
        if (name == null) {
            return null;
        }
        String schema = QualifiedName.parse(name.strip()).get(0);
        return snapshot(root).namespaces().stream().filter(n -> n.name().equals(schema)).findFirst()
                .or(() -> snapshot(root).namespaces().stream().filter(n -> n.name().equalsIgnoreCase(schema)).findFirst())
                .map(CatalogSnapshot.Namespace::oid)
                .orElseThrow(() -> new IllegalArgumentException("schema \"" + name + "\" does not exist"));
    }

    /** The session's search path; without a server session, Fluss's default database. */
    static List<String> searchPath(DataContext root) {
        if (root.get(SessionHost.KEY) instanceof SessionHost host) {
            return host.searchPath();
        }
        return List.of(PublicSchema.DATABASE);
    }

    static CatalogSnapshot snapshot(DataContext root) {
        SchemaPlus rootSchema = root.getRootSchema();
        SchemaPlus catalog = rootSchema == null ? null : rootSchema.getSubSchema(PgCatalogSchema.NAME);
        if (catalog == null) {
            throw new IllegalStateException("The PostgreSQL catalog functions need a connection of the postgresql"
                    + " dialect");
        }
        return catalog.unwrap(PgCatalogSchema.class).snapshots().of(root);
    }
}
