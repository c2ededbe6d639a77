package dev.riffle.sql.plan;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.read.ReadIntent;
import dev.riffle.core.read.ReadPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.TimestampType;

/**
 * What one scan reads, as plain data: the table and which of its SQL views ({@link Source}), the
 * access ({@link Access}: lookups by key, or a read of the table through Riffle's read façade,
 * whose concrete path is {@link #path()}), the columns, the conditions it applies and an optional
 * row limit. Rules produce plans; {@code dev.riffle.sql.exec.ScanExecutor} runs them. EXPLAIN
 * ({@link #describe()}) and execution switch on the same values.
 *
 * @param columns positions in the SQL table's row type, in output order
 * @param limit at most this many rows: a literal or a {@code ?} parameter
 * @param filters conditions the read applies itself (every row it returns satisfies them)
 */
public record ReadPlan(TableInfo table, Source source, Access access, List<Integer> columns, Optional<KeyValue> limit,
        List<PushedCondition> filters) {

    /** Which SQL table over the Fluss table: {@code t}, {@code t$log}, {@code t$lake}, {@code t$changelog}. */
    public enum Source {
        /** {@code t}: the union read for datalake-enabled tables, otherwise the log (PK tables: folded by key). */
        CURRENT(""),
        /** {@code t$log}: Fluss alone (PK tables: the changelog folded by key). */
        LOG("$log"),
        /** {@code t$lake}: the lake snapshot alone. */
        LAKE("$lake"),
        /** {@code t$changelog}: every change, with {@code _change_type}, {@code _log_offset}, {@code _commit_timestamp}. */
        CHANGELOG("$changelog");

        private final String suffix;

        Source(String suffix) {
            this.suffix = suffix;
        }

        public String suffix() {
            return suffix;
        }
    }

    /** A key value: a literal (Calcite's value) or the index of a {@code ?} parameter. */
    public record KeyValue(Object literal, int parameter) {
        public static KeyValue literal(Object value) {
            return new KeyValue(requireNonNull(value, "value is null"), -1);
        }

        public static KeyValue parameter(int index) {
            return new KeyValue(null, index);
        }

        public boolean isParameter() {
            return parameter >= 0;
        }

        @Override
        public String toString() {
            return isParameter() ? "?" + parameter : literal instanceof String s ? "'" + s + "'" : String.valueOf(literal);
        }
    }

    /** How the rows are found. */
    public sealed interface Access permits Scan, Lookup, PrefixLookup {}

    /** Every row of the source (bounded at the offsets current when the read starts). */
    public record Scan() implements Access {}

    /** Point lookups on the primary key: one per key (several keys: one batch). */
    public record Lookup(List<String> keyColumns, List<List<KeyValue>> keys) implements Access {
        public Lookup {
            keyColumns = List.copyOf(keyColumns);
            keys = keys.stream().map(List::copyOf).toList();
        }
    }

    /** A prefix lookup on the bucket key (a prefix of the primary key). */
    public record PrefixLookup(List<String> prefixColumns, List<KeyValue> prefix) implements Access {
        public PrefixLookup {
            prefixColumns = List.copyOf(prefixColumns);
            prefix = List.copyOf(prefix);
        }
    }

    public ReadPlan {
        requireNonNull(table, "table is null");
        requireNonNull(source, "source is null");
        requireNonNull(access, "access is null");
        columns = List.copyOf(columns);
        requireNonNull(limit, "limit is null");
        filters = List.copyOf(filters);
    }

    /** A full read of every column. */
    public static ReadPlan scan(TableInfo table, Source source, int columnCount) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < columnCount; i++) {
            all.add(i);
        }
        return new ReadPlan(table, source, new Scan(), all, Optional.empty(), List.of());
    }

    public ReadPlan withAccess(Access newAccess) {
        return new ReadPlan(table, source, newAccess, columns, limit, filters);
    }

    public ReadPlan withColumns(List<Integer> newColumns) {
        return new ReadPlan(table, source, access, newColumns, limit, filters);
    }

    public ReadPlan withLimit(long rows) {
        return withLimit(KeyValue.literal(rows));
    }

    public ReadPlan withLimit(KeyValue rows) {
        return new ReadPlan(table, source, access, columns, Optional.of(rows), filters);
    }

    public ReadPlan withFilters(List<PushedCondition> newFilters) {
        return new ReadPlan(table, source, access, columns, limit, newFilters);
    }

    /**
     * Whether a filter condition can be applied by the read itself. A scan applies every condition
     * on the table's columns (the read façade tests it on the Arrow batches, after a primary-key
     * merge; partitions it rules out and lake files it prunes are not read). A lookup tests the
     * rows it finds only against conditions on timestamps finer than milliseconds, which Calcite
     * above it would compare in milliseconds ({@code ts = TIMESTAMP '... .123'} would hold for
     * {@code .123456}); every other condition stays in Calcite's filter, as before.
     */
    public boolean absorbs(PushedCondition condition) {
        List<String> names = table.getRowType().getFieldNames();
        if (!names.containsAll(condition.columns())) {
            return false;
        }
        return access instanceof Scan || condition.columns().stream()
                .allMatch(column -> finerThanMilliseconds(table.getRowType().getTypeAt(names.indexOf(column))));
    }

    private static boolean finerThanMilliseconds(DataType type) {
        return type instanceof TimestampType ntz && ntz.getPrecision() > 3
                || type instanceof LocalZonedTimestampType ltz && ltz.getPrecision() > 3;
    }

    public boolean primaryKeyTable() {
        return table.hasPrimaryKey();
    }

    /** What the SQL table asks of the read façade. */
    public ReadIntent intent() {
        return switch (source) {
            case CURRENT, LOG -> ReadIntent.CURRENT;
            case LAKE -> ReadIntent.LAKE;
            case CHANGELOG -> ReadIntent.CHANGELOG;
        };
    }

    /** Whether the current rows come through the lake ({@code t$log} reads Fluss alone). */
    public boolean throughLake() {
        return source != Source.LOG;
    }

    /** The reader a {@link Scan} access takes, as the read façade decides it. */
    public ReadPath path() {
        return ReadPath.choose(table, intent(), throughLake(), !filters.isEmpty(), limit.isPresent());
    }

    /** The access path as EXPLAIN shows it. */
    public String describe() {
        String path;
        if (access instanceof Lookup lookup) {
            path = (lookup.keys().size() == 1 ? "PointLookup" : "BatchLookup") + lookup.keys().stream()
                    .map(key -> render(lookup.keyColumns(), key)).collect(Collectors.joining(", ", "[", "]"));
        } else if (access instanceof PrefixLookup prefix) {
            path = "PrefixLookup[" + render(prefix.prefixColumns(), prefix.prefix()) + "]";
        } else if (limit.isPresent()) {
            path = "LimitScan[" + limit.get() + ", " + path().displayName() + "]";
            return filters.isEmpty() ? path : path + filters.stream().map(PushedCondition::describe)
                    .collect(Collectors.joining(" AND ", "[", "]"));
        } else {
            path = path().displayName();
        }
        if (!filters.isEmpty()) {
            path += filters.stream().map(PushedCondition::describe).collect(Collectors.joining(" AND ", "[", "]"));
        }
        return limit.isPresent() ? path + " limit " + limit.get() : path;
    }

    private static String render(List<String> names, List<KeyValue> values) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            parts.add(names.get(i) + "=" + values.get(i));
        }
        return String.join(" AND ", parts);
    }
}
