package dev.riffle.server.write;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.types.TemporalRange;
import dev.riffle.core.values.FlussValueSink;
import dev.riffle.core.values.ValueSink;
import dev.riffle.sql.engine.InsertValues;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.types.TimestampType;

/**
 * The rows of an {@link InsertValues} statement as whole Fluss rows of its table: a literal is read
 * by its dialect's {@link LiteralReader} for its column's type (PostgreSQL's text forms, or the ISO
 * forms of Riffle's own dialect), a bound parameter (already of the type the statement takes) is put
 * as it is, both into the value layer's {@link FlussValueSink}, so each value is checked by the rules
 * every Riffle write follows; unlisted columns are NULL. This is how every surface writes a literal
 * INSERT without planning it: the engine plans a VALUES row that needs a conversion as a union of
 * one-row selects, which for thousands of rows is slow and, past a few thousand, too deep to plan.
 *
 * <p>A decoder only takes what it reads without doubt: where a statement or a value is anything
 * else (an unknown column, a required column left out, a value not of its column's type, a MAP,
 * ROW or CHAR(n) column, a literal its reader does not take), it answers empty and the statement runs through the SQL engine, which writes it or
 * says what is wrong exactly as it does for any INSERT.
 *
 * <pre>{@code
 * InsertRowDecoder.of(tableInfo, insert, StandardLiteralReader.INSTANCE).flatMap(d -> d.decode(parameters))
 *     .ifPresent(rows -> batch.write(tableInfo, rows));
 * }</pre>
 */
public final class InsertRowDecoder {
    private final InsertValues insert;
    private final LiteralReader reader;
    private final int width;
    private final int[] positions;
    private final DataType[] types;
    private final boolean[] required;
    private final FlussValueSink[] sinks;

    private InsertRowDecoder(InsertValues insert, LiteralReader reader, int width, int[] positions, DataType[] types,
            boolean[] required) {
        this.insert = insert;
        this.reader = reader;
        this.width = width;
        this.positions = positions;
        this.types = types;
        this.required = required;
        this.sinks = new FlussValueSink[types.length];
        for (int i = 0; i < types.length; i++) {
            sinks[i] = new FlussValueSink(types[i]);
        }
    }

    /**
     * The decoder of {@code insert}'s rows for {@code table}, its literals read by {@code reader},
     * when its columns are ones this decoder writes.
     */
    public static Optional<InsertRowDecoder> of(TableInfo table, InsertValues insert, LiteralReader reader) {
        requireNonNull(table, "table is null");
        requireNonNull(insert, "insert is null");
        requireNonNull(reader, "reader is null");
        RowType rowType = table.getRowType();
        List<String> names = rowType.getFieldNames();
        List<String> columns = insert.columns().orElse(names);
        int given = insert.rows().get(0).size();
        if (columns.size() != given) {
            return Optional.empty(); // fewer values than columns: the engine decides what they mean
        }
        int[] positions = new int[given];
        DataType[] types = new DataType[given];
        boolean[] required = new boolean[given];
        boolean[] listed = new boolean[names.size()];
        for (int i = 0; i < given; i++) {
            int position = names.indexOf(columns.get(i));
            if (position < 0 || listed[position]) {
                return Optional.empty();
            }
            listed[position] = true;
            positions[i] = position;
            types[i] = rowType.getTypeAt(position);
            if (!reader.writes(types[i])) {
                return Optional.empty();
            }
            required[i] = !types[i].isNullable() || table.getPrimaryKeys().contains(columns.get(i));
        }
        for (int p = 0; p < names.size(); p++) {
            if (!listed[p] && (!rowType.getTypeAt(p).isNullable() || table.getPrimaryKeys().contains(names.get(p)))) {
                return Optional.empty();
            }
        }
        return Optional.of(new InsertRowDecoder(insert, reader, names.size(), positions, types, required));
    }

    /**
     * The statement's rows, its {@code ?} bound to {@code parameters} (in order, as the statement
     * takes them); empty when a value is not one this decoder takes without doubt.
     */
    public Optional<List<GenericRow>> decode(List<Object> parameters) {
        requireNonNull(parameters, "parameters is null");
        List<GenericRow> rows = new ArrayList<>(insert.rows().size());
        for (List<InsertValues.Value> values : insert.rows()) {
            GenericRow row = new GenericRow(width);
            for (int i = 0; i < positions.length; i++) {
                InsertValues.Value value = values.get(i);
                Object given;
                if (value instanceof InsertValues.Value.Parameter parameter) {
                    if (parameter.position() >= parameters.size()) {
                        return Optional.empty();
                    }
                    given = parameters.get(parameter.position());
                } else {
                    given = value instanceof InsertValues.Value.Null ? null : value;
                }
                if (given == null) {
                    if (required[i]) {
                        return Optional.empty();
                    }
                    continue;
                }
                try {
                    String text;
                    if (given instanceof InsertValues.Value.Number number) {
                        if (!NUMERIC.contains(types[i].getTypeRoot())) {
                            return Optional.empty(); // a number into a string, boolean or date: the engine's cast
                        }
                        text = number.text();
                        reader.read(text, types[i], sinks[i]);
                    } else if (given instanceof InsertValues.Value.Bool bool) {
                        if (types[i].getTypeRoot() != DataTypeRoot.BOOLEAN) {
                            return Optional.empty();
                        }
                        text = "";
                        sinks[i].booleanValue(bool.value());
                    } else if (given instanceof InsertValues.Value.Literal literal) {
                        if (!reader.readsQuoted(types[i], literal.text())) {
                            return Optional.empty(); // the engine casts it
                        }
                        text = literal.text();
                        reader.read(text, types[i], sinks[i]);
                    } else if (!put(given, types[i], sinks[i])) {
                        return Optional.empty();
                    } else {
                        text = "";
                    }
                    Object taken = sinks[i].take();
                    if (finerThanColumn(taken, types[i])) {
                        return Optional.empty(); // the engine rounds it as PostgreSQL does
                    }
                    if (!text.isEmpty() && outOfFloatRange(taken, text)) {
                        return Optional.empty(); // 1e400 is no Infinity: the engine says it is out of range
                    }
                    row.setField(positions[i], taken);
                } catch (InvalidValueException e) {
                    sinks[i] = new FlussValueSink(types[i]); // a failed value may leave the sink mid-way
                    return Optional.empty();
                }
            }
            rows.add(row);
        }
        return Optional.of(rows);
    }

    private static final java.util.Set<DataTypeRoot> NUMERIC = java.util.EnumSet.of(DataTypeRoot.TINYINT,
            DataTypeRoot.SMALLINT, DataTypeRoot.INTEGER, DataTypeRoot.BIGINT, DataTypeRoot.FLOAT, DataTypeRoot.DOUBLE,
            DataTypeRoot.DECIMAL);

    /**
     * A float or double read from text that overflowed to infinity or underflowed to zero, where
     * the text did not ask for infinity, NaN or zero.
     */
    private static boolean outOfFloatRange(Object value, String text) {
        double number;
        if (value instanceof Float f) {
            number = f;
        } else if (value instanceof Double d) {
            number = d;
        } else {
            return false;
        }
        String lower = text.strip().toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("inf") || lower.contains("nan")) {
            return false;
        }
        if (Double.isInfinite(number) || Double.isNaN(number)) {
            return true;
        }
        if (number == 0) {
            String mantissa = lower.split("e", 2)[0];
            return mantissa.chars().anyMatch(c -> c >= '1' && c <= '9');
        }
        return false;
    }

    /** A timestamp with digits below its column's precision. */
    private static boolean finerThanColumn(Object value, DataType type) {
        int precision;
        long nanoOfSecond;
        if (value instanceof TimestampNtz ntz && type instanceof TimestampType timestamp) {
            precision = timestamp.getPrecision();
            nanoOfSecond = Math.floorMod(ntz.getMillisecond(), 1_000L) * 1_000_000L + ntz.getNanoOfMillisecond();
        } else if (value instanceof TimestampLtz ltz && type instanceof LocalZonedTimestampType timestamp) {
            precision = timestamp.getPrecision();
            nanoOfSecond = Math.floorMod(ltz.getEpochMillisecond(), 1_000L) * 1_000_000L + ltz.getNanoOfMillisecond();
        } else {
            return false;
        }
        long unit = (long) Math.pow(10, 9 - precision);
        return nanoOfSecond % unit != 0;
    }

    /**
     * Puts a bound parameter (as the extended protocol decoded it: Boolean, Integer, Long, Float,
     * Double, BigDecimal, String, byte[], Date, Timestamp) into the sink of its column.
     *
     * @return false for a value of another kind, or one that needs a conversion (a fraction into an
     *     integer column, say), which the SQL engine makes
     */
    private static boolean put(Object value, DataType type, ValueSink sink) {
        switch (type.getTypeRoot()) {
            case BOOLEAN -> {
                if (!(value instanceof Boolean bool)) {
                    return false;
                }
                sink.booleanValue(bool);
            }
            case TINYINT, SMALLINT, INTEGER, BIGINT -> {
                if (!(value instanceof Integer || value instanceof Long || value instanceof Short)) {
                    return false;
                }
                sink.integerValue(((Number) value).longValue());
            }
            case FLOAT, DOUBLE -> {
                if (value instanceof Float number) {
                    sink.floatValue(number);
                } else if (value instanceof Double number) {
                    sink.doubleValue(number);
                } else {
                    return false;
                }
            }
            case DECIMAL -> {
                if (value instanceof BigDecimal decimal) {
                    sink.decimalValue(decimal);
                } else if (value instanceof Integer || value instanceof Long || value instanceof Short) {
                    sink.decimalValue(BigDecimal.valueOf(((Number) value).longValue()));
                } else {
                    return false;
                }
            }
            case STRING -> {
                if (!(value instanceof String text)) {
                    return false;
                }
                sink.stringValue(text);
            }
            case BINARY, BYTES -> {
                if (!(value instanceof byte[] bytes)) {
                    return false;
                }
                sink.binaryValue(bytes);
            }
            case DATE -> {
                if (!(value instanceof Date date)) {
                    return false;
                }
                java.time.LocalDate day = date.toLocalDate();
                if (TemporalRange.date(day).isPresent()) {
                    return false;
                }
                sink.dateValue((int) day.toEpochDay());
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE -> {
                if (!(value instanceof Timestamp timestamp)) {
                    return false;
                }
                LocalDateTime time = timestamp.toLocalDateTime();
                if (TemporalRange.timestamp(time, ((TimestampType) type).getPrecision()).isPresent()) {
                    return false;
                }
                sink.timestampValue(time.toEpochSecond(ZoneOffset.UTC), time.getNano());
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                if (!(value instanceof Timestamp timestamp)) {
                    return false;
                }
                LocalDateTime time = timestamp.toLocalDateTime(); // the session's time zone is UTC
                if (TemporalRange.instant(time.toInstant(ZoneOffset.UTC),
                        ((LocalZonedTimestampType) type).getPrecision()).isPresent()) {
                    return false;
                }
                sink.instantValue(time.toEpochSecond(ZoneOffset.UTC), time.getNano());
            }
            default -> {
                return false; // TIME, arrays: through the engine
            }
        }
        return true;
    }
}
