package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.sql.LocalStatement;
import dev.riffle.pgwire.sql.Placeholders;
import dev.riffle.pgwire.types.ColumnType;
import dev.riffle.sql.dialect.PgType;
import dev.riffle.sql.engine.InsertValues;
import dev.riffle.sql.engine.StatementShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * A parsed statement (named, or the unnamed one): what it is, the types of its parameters (as
 * declared by the client or inferred by the SQL layer) and the columns it answers.
 *
 * @param parameterTypes one per PostgreSQL parameter ($1, $2, ...)
 * @param targetTypes one per SQL-layer {@code ?} (in {@link Plan.Sql#placeholders()} order): the type the statement takes there
 * @param columns the answer's columns (empty when it answers no rows)
 */
record Prepared(String name, String sql, Plan plan, List<PgType> parameterTypes, List<PgType> targetTypes,
        List<Column> columns) {
    Prepared {
        requireNonNull(name, "name is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(plan, "plan is null");
        parameterTypes = List.copyOf(parameterTypes);
        targetTypes = List.copyOf(targetTypes);
        columns = List.copyOf(columns);
    }

    /**
     * One answered column: its name, type and PostgreSQL's type modifier ({@code numeric(10,2)}'s
     * precision and scale, a timestamp's fractional digits; -1 for none), which drivers report
     * as a column's precision and scale; and, for a table's column read as it is, the table's OID
     * and the column's attribute number in {@code pg_attribute} (0 and 0 otherwise), which drivers
     * look up for {@code getTableName}.
     */
    record Column(String name, ColumnType type, int typmod, int tableOid, short attnum) {
        Column(String name, ColumnType type, int typmod) {
            this(name, type, typmod, 0, (short) 0);
        }

        Column withOrigin(int tableOid, short attnum) {
            return new Column(name, type, typmod, tableOid, attnum);
        }

        /** The column an Arrow field of a statement's rows is. */
        static Column of(Field field) {
            return new Column(field.getName(), ColumnType.of(field), typmod(field.getType()));
        }

        private static int typmod(ArrowType type) {
            if (type instanceof ArrowType.Decimal decimal) {
                return ((decimal.getPrecision() << 16) | decimal.getScale()) + 4; // PostgreSQL's VARHDRSZ
            }
            if (type instanceof ArrowType.Timestamp timestamp) {
                return switch (timestamp.getUnit()) {
                    case SECOND -> 0;
                    case MILLISECOND -> 3;
                    case MICROSECOND, NANOSECOND -> 6; // PostgreSQL keeps microseconds at most
                };
            }
            return -1;
        }
    }

    /** How a statement is answered. */
    sealed interface Plan {
        /** A query of nothing but white space and comments: EmptyQueryResponse. */
        record Empty() implements Plan {}

        /** Answered by the PostgreSQL layer. */
        record Local(LocalStatement statement) implements Plan {}

        /**
         * Answered by the SQL engine: the statement with {@code ?} for each {@code $n}; when it is
         * an {@code INSERT ... VALUES} of literals and parameters, that insert, which the session
         * writes itself when it can ({@link BatchedInserts}).
         */
        record Sql(Placeholders placeholders, StatementShape shape, Optional<InsertValues> insert) implements Plan {
            public Sql {
                requireNonNull(placeholders, "placeholders is null");
                requireNonNull(shape, "shape is null");
                requireNonNull(insert, "insert is null");
            }
        }
    }

    /** The RowDescription of {@code columns}, each in the format given at its index (text past the last given). */
    static BackendMessage.RowDescription rowDescription(List<Column> columns, List<Short> formats) {
        List<BackendMessage.Column> described = new ArrayList<>(columns.size());
        for (int c = 0; c < columns.size(); c++) {
            Column column = columns.get(c);
            short format = c < formats.size() ? formats.get(c) : 0;
            described.add(new BackendMessage.Column(column.name(), column.tableOid(), column.attnum(),
                    column.type().oid(), column.type().size(), column.typmod(), format));
        }
        return new BackendMessage.RowDescription(described);
    }

    static Column textColumn(String name) {
        return new Column(name, new ColumnType(PgType.TEXT), -1);
    }
}
