package dev.riffle.gateway.sql;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.riffle.gateway.http.Render;
import io.javalin.http.Context;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Calendar;
import java.util.TimeZone;

/**
 * SQL results as JSON: {@code {"columns": [{"name", "type"}], "rows": [{..}], "rowCount": n}},
 * written as rows are read. Values take the forms of the gateway's other answers: DATE
 * {@code "2024-06-01"}, TIME {@code "12:30:00.25"}, TIMESTAMP {@code "2024-06-01T12:30:00.25"},
 * TIMESTAMP WITH LOCAL TIME ZONE an instant, binary as base64, NaN and infinities as strings.
 */
final class SqlJson {
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private SqlJson() {}

    /** Writes the whole answer; returns the rows written. */
    static long write(Context ctx, ResultSet rows) throws IOException, SQLException {
        ResultSetMetaData meta = rows.getMetaData();
        int columns = meta.getColumnCount();
        String[] names = new String[columns];
        int[] types = new int[columns];
        int[] scales = new int[columns];
        for (int i = 0; i < columns; i++) {
            names[i] = meta.getColumnLabel(i + 1);
            types[i] = meta.getColumnType(i + 1);
            scales[i] = meta.getScale(i + 1);
        }
        // The first row is read before the answer begins, so a statement that fails on its first
        // row still gets a proper error status.
        boolean more = rows.next();
        long[] count = {0};
        Calendar utc = Calendar.getInstance(TimeZone.getTimeZone(ZoneOffset.UTC));
        Render.streamJson(ctx, json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("columns");
            for (int i = 0; i < columns; i++) {
                json.writeStartObject();
                json.writeStringField("name", names[i]);
                try {
                    json.writeStringField("type", meta.getColumnTypeName(i + 1));
                } catch (SQLException e) {
                    throw new IOException(e);
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeArrayFieldStart("rows");
            try {
                boolean hasRow = more;
                while (hasRow) {
                    json.writeStartObject();
                    for (int i = 0; i < columns; i++) {
                        json.writeFieldName(names[i]);
                        writeValue(json, rows, i + 1, types[i], scales[i], utc);
                    }
                    json.writeEndObject();
                    count[0]++;
                    hasRow = rows.next();
                }
            } catch (SQLException e) {
                throw new IOException("The statement failed after " + count[0] + " rows: " + e.getMessage(), e);
            }
            json.writeEndArray();
            json.writeNumberField("rowCount", count[0]);
            json.writeEndObject();
        });
        return count[0];
    }

    private static void writeValue(JsonGenerator json, ResultSet rows, int column, int type, int scale, Calendar utc)
            throws IOException, SQLException {
        switch (type) {
            case Types.BOOLEAN, Types.BIT -> {
                boolean value = rows.getBoolean(column);
                if (rows.wasNull()) {
                    json.writeNull();
                } else {
                    json.writeBoolean(value);
                }
            }
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> {
                long value = rows.getLong(column);
                if (rows.wasNull()) {
                    json.writeNull();
                } else {
                    json.writeNumber(value);
                }
            }
            case Types.REAL, Types.FLOAT, Types.DOUBLE -> {
                double value = rows.getDouble(column);
                if (rows.wasNull()) {
                    json.writeNull();
                } else if (Double.isNaN(value) || Double.isInfinite(value)) {
                    json.writeString(Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
                } else if (type == Types.REAL) {
                    json.writeNumber((float) value);
                } else {
                    json.writeNumber(value);
                }
            }
            case Types.DECIMAL, Types.NUMERIC -> {
                BigDecimal value = rows.getBigDecimal(column);
                if (value == null) {
                    json.writeNull();
                } else {
                    // Calcite drops trailing zeros in computed decimals; answer with the column's scale.
                    json.writeNumber(value.scale() < scale ? value.setScale(scale) : value);
                }
            }
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> {
                byte[] value = rows.getBytes(column);
                if (value == null) {
                    json.writeNull();
                } else {
                    json.writeString(Base64.getEncoder().encodeToString(value));
                }
            }
            case Types.DATE -> {
                java.sql.Date value = rows.getDate(column, utc);
                if (value == null) {
                    json.writeNull();
                } else {
                    json.writeString(LocalDate.ofEpochDay(Math.floorDiv(value.getTime(), MILLIS_PER_DAY)).toString());
                }
            }
            case Types.TIME -> {
                java.sql.Time value = rows.getTime(column, utc);
                if (value == null) {
                    json.writeNull();
                } else {
                    long millis = Math.floorMod(value.getTime(), MILLIS_PER_DAY);
                    json.writeString(LocalTime.ofNanoOfDay(millis * 1_000_000L).toString());
                }
            }
            case Types.TIMESTAMP -> {
                java.sql.Timestamp value = rows.getTimestamp(column, utc);
                if (value == null) {
                    json.writeNull();
                } else {
                    json.writeString(LocalDateTime.ofInstant(value.toInstant(), ZoneOffset.UTC).toString());
                }
            }
            case Types.TIMESTAMP_WITH_TIMEZONE -> {
                java.sql.Timestamp value = rows.getTimestamp(column, utc);
                if (value == null) {
                    json.writeNull();
                } else {
                    json.writeString(Instant.ofEpochMilli(value.getTime()).toString());
                }
            }
            default -> {
                Object value = rows.getObject(column);
                if (value == null) {
                    json.writeNull();
                } else if (value instanceof Number number) {
                    json.writeNumber(number.toString());
                } else if (value instanceof Boolean bool) {
                    json.writeBoolean(bool);
                } else {
                    json.writeString(value.toString());
                }
            }
        }
    }
}
