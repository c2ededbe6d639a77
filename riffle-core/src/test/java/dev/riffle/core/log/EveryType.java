package dev.riffle.core.log;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.types.TimeType;
import org.apache.fluss.types.TimestampType;
import org.apache.fluss.utils.json.DataTypeJsonSerde;
import org.apache.fluss.utils.json.JsonSerdeUtils;

/**
 * A table with a column of every Fluss type (every precision class of the time types, nested
 * types inside one another), and random rows for it in the plain Java values both Fluss versions'
 * writers take ({@link Fluss10BatchWriter}). Values are generated at the precision their column
 * keeps, so what comes back must be equal, not merely close.
 */
final class EveryType {
    static final RowType ROW_TYPE = DataTypes.ROW(
            DataTypes.FIELD("b", DataTypes.BOOLEAN()),
            DataTypes.FIELD("ti", DataTypes.TINYINT()),
            DataTypes.FIELD("si", DataTypes.SMALLINT()),
            DataTypes.FIELD("i", DataTypes.INT()),
            DataTypes.FIELD("bi", DataTypes.BIGINT()),
            DataTypes.FIELD("f", DataTypes.FLOAT()),
            DataTypes.FIELD("d", DataTypes.DOUBLE()),
            DataTypes.FIELD("dec_small", DataTypes.DECIMAL(10, 2)),
            DataTypes.FIELD("dec_big", DataTypes.DECIMAL(38, 18)),
            DataTypes.FIELD("ch", DataTypes.CHAR(5)),
            DataTypes.FIELD("s", DataTypes.STRING()),
            DataTypes.FIELD("bin", DataTypes.BINARY(4)),
            DataTypes.FIELD("by", DataTypes.BYTES()),
            DataTypes.FIELD("dt", DataTypes.DATE()),
            DataTypes.FIELD("t0", DataTypes.TIME(0)),
            DataTypes.FIELD("t3", DataTypes.TIME(3)),
            DataTypes.FIELD("t6", DataTypes.TIME(6)),
            DataTypes.FIELD("t9", DataTypes.TIME(9)),
            DataTypes.FIELD("ts0", DataTypes.TIMESTAMP(0)),
            DataTypes.FIELD("ts3", DataTypes.TIMESTAMP(3)),
            DataTypes.FIELD("ts6", DataTypes.TIMESTAMP(6)),
            DataTypes.FIELD("ts9", DataTypes.TIMESTAMP(9)),
            DataTypes.FIELD("ltz0", DataTypes.TIMESTAMP_LTZ(0)),
            DataTypes.FIELD("ltz3", DataTypes.TIMESTAMP_LTZ(3)),
            DataTypes.FIELD("ltz6", DataTypes.TIMESTAMP_LTZ(6)),
            DataTypes.FIELD("ltz9", DataTypes.TIMESTAMP_LTZ(9)),
            DataTypes.FIELD("arr", DataTypes.ARRAY(DataTypes.INT())),
            DataTypes.FIELD("arr_s", DataTypes.ARRAY(DataTypes.STRING())),
            DataTypes.FIELD("m", DataTypes.MAP(DataTypes.STRING(), DataTypes.BIGINT())),
            DataTypes.FIELD("r", DataTypes.ROW(
                    DataTypes.FIELD("x", DataTypes.INT()),
                    DataTypes.FIELD("inner", DataTypes.ROW(DataTypes.FIELD("y", DataTypes.STRING()))))),
            DataTypes.FIELD("nn", DataTypes.INT().copy(false)));

    /** Columns Fluss 1.0 collects statistics for when they are named (it rejects nested types). */
    static final String SOME_STATISTICS_COLUMNS = "i,s,dec_big,ts3,ltz9,dt";

    private static final String CHARACTERS = "abcxyzé✓ß漢字-_ 0123456789";
    private static final BigInteger TEN_TO_38 = BigInteger.TEN.pow(38);

    private EveryType() {}

    /** The row type as Fluss's JSON serde writes it: the form that crosses to Fluss 1.0. */
    static byte[] rowTypeJson(RowType rowType) {
        return JsonSerdeUtils.writeValueAsBytes(rowType, DataTypeJsonSerde.INSTANCE);
    }

    static List<List<Object>> randomRows(Random random, int count) {
        List<List<Object>> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            rows.add(randomRow(random, ROW_TYPE));
        }
        return rows;
    }

    /** Change types in the orders a primary-key table's changelog has them. */
    static List<String> randomChangeTypes(Random random, int count) {
        List<String> types = new ArrayList<>(count);
        List<String> all = List.of("+I", "-U", "+U", "-D");
        for (int i = 0; i < count; i++) {
            types.add(i < all.size() ? all.get(i) : all.get(random.nextInt(all.size())));
        }
        return types;
    }

    private static List<Object> randomRow(Random random, RowType rowType) {
        List<Object> row = new ArrayList<>(rowType.getFieldCount());
        for (DataField field : rowType.getFields()) {
            boolean isNull = field.getType().isNullable() && random.nextInt(7) == 0;
            row.add(isNull ? null : randomValue(random, field.getType()));
        }
        return row;
    }

    private static Object randomValue(Random random, DataType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return random.nextBoolean();
            case TINYINT:
                return (byte) random.nextInt();
            case SMALLINT:
                return (short) random.nextInt();
            case INTEGER:
                return random.nextInt();
            case BIGINT:
                return random.nextLong();
            case FLOAT:
                return pick(random, (random.nextFloat() - 0.5f) * 1e6f, -0.0f, Float.MAX_VALUE, Float.MIN_VALUE,
                        Float.NEGATIVE_INFINITY, Float.NaN);
            case DOUBLE:
                return pick(random, (random.nextDouble() - 0.5) * 1e12, -0.0, Double.MAX_VALUE, Double.MIN_VALUE,
                        Double.POSITIVE_INFINITY, Double.NaN);
            case DECIMAL:
                return randomDecimal(random, (DecimalType) type);
            case CHAR:
                return randomString(random, random.nextInt(6));
            case STRING:
                return randomString(random, random.nextInt(24));
            case BINARY:
                return randomBytes(random, 4);
            case BYTES:
                return randomBytes(random, random.nextInt(17));
            case DATE:
                return LocalDate.ofEpochDay(random.nextInt(200_000) - 100_000);
            case TIME_WITHOUT_TIME_ZONE:
                // Fluss keeps TIME to the millisecond whatever the precision; TIME(0) to the second.
                long millis = random.nextInt(86_400_000);
                int timePrecision = ((TimeType) type).getPrecision();
                return LocalTime.ofNanoOfDay((timePrecision == 0 ? millis - millis % 1000 : millis) * 1_000_000);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return LocalDateTime.ofInstant(randomInstant(random, ((TimestampType) type).getPrecision()), ZoneOffset.UTC);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return randomInstant(random, ((LocalZonedTimestampType) type).getPrecision());
            case ARRAY:
                DataType element = ((org.apache.fluss.types.ArrayType) type).getElementType();
                List<Object> array = new ArrayList<>();
                for (int i = random.nextInt(5); i > 0; i--) {
                    array.add(random.nextInt(4) == 0 ? null : randomValue(random, element));
                }
                return array;
            case MAP:
                org.apache.fluss.types.MapType mapType = (org.apache.fluss.types.MapType) type;
                Map<Object, Object> map = new LinkedHashMap<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    map.put(randomValue(random, mapType.getKeyType()),
                            random.nextInt(4) == 0 ? null : randomValue(random, mapType.getValueType()));
                }
                return map;
            case ROW:
                return randomRow(random, (RowType) type);
            default:
                throw new IllegalArgumentException("No random values for " + type);
        }
    }

    @SafeVarargs
    private static <T> T pick(Random random, T usual, T... edges) {
        return random.nextInt(4) == 0 ? edges[random.nextInt(edges.length)] : usual;
    }

    private static BigDecimal randomDecimal(Random random, DecimalType type) {
        BigInteger bound = BigInteger.TEN.pow(type.getPrecision());
        BigInteger unscaled = new BigInteger(128, random).mod(bound.min(TEN_TO_38));
        return new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), type.getScale());
    }

    private static String randomString(Random random, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(CHARACTERS.charAt(random.nextInt(CHARACTERS.length())));
        }
        return text.toString();
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Between 1900 and 2100, truncated to {@code precision} fractional digits. */
    private static Instant randomInstant(Random random, int precision) {
        long seconds = -2_208_988_800L + (long) (random.nextDouble() * 6_311_347_200L);
        long unit = (long) Math.pow(10, 9 - precision);
        long nanos = random.nextInt(1_000_000_000) / unit * unit;
        return Instant.ofEpochSecond(seconds, nanos);
    }

    /** Field positions of {@code names} in {@link #ROW_TYPE}. */
    static int[] positions(String... names) {
        return Arrays.stream(names).mapToInt(ROW_TYPE::getFieldIndex).toArray();
    }
}
