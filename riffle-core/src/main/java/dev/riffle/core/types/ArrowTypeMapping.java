package dev.riffle.core.types;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.BinaryType;
import org.apache.fluss.types.CharType;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.types.TimeType;
import org.apache.fluss.types.TimestampType;

/**
 * Converts Fluss row types to Arrow schemas and back.
 *
 * <p>The Arrow side has exactly the buffer layout Fluss writes in its Arrow log batches, so vectors built from
 * {@link #toArrowSchema} can load Fluss record batches as they are. The one deliberate difference is that
 * {@code TIMESTAMP_LTZ} becomes a {@code Timestamp} with zone {@code "UTC"} (Fluss writes no zone; the buffers are
 * the same), so Arrow users see an instant rather than a wall-clock time.
 *
 * <p>What Arrow cannot express ({@code CHAR} length, a time precision that shares its unit with others, a field's id
 * and description, a {@code NOT NULL} row type) travels in metadata under the {@code fluss.} prefix, written only when
 * needed, so the round trip is exact. Arrow data without that metadata maps to the widest matching Fluss type.
 *
 * <pre>{@code
 * Schema schema = ArrowTypeMapping.toArrowSchema(tableInfo.getRowType());
 * try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
 *     // load Fluss Arrow batches into root
 * }
 * RowType same = ArrowTypeMapping.toRowType(schema);   // equals tableInfo.getRowType()
 * }</pre>
 */
public final class ArrowTypeMapping {
    private static final String TYPE_ROOT = "fluss.type.root";
    private static final String LENGTH = "fluss.length";
    private static final String PRECISION = "fluss.precision";
    private static final String FIELD_ID = "fluss.field-id";
    private static final String DESCRIPTION = "fluss.description";
    private static final String NULLABLE = "fluss.nullable";

    /** Fluss writes no zone for TIMESTAMP_LTZ; Riffle names one so Arrow readers see an instant. */
    private static final String LTZ_ZONE = "UTC";

    private static final String SUPPORTED_FLUSS = "BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, CHAR, "
            + "STRING, BINARY, BYTES, DECIMAL, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, ARRAY, MAP, ROW";
    private static final String SUPPORTED_ARROW = "Bool, Int(8/16/32/64, signed), FloatingPoint(SINGLE/DOUBLE), "
            + "Utf8, LargeUtf8, Binary, LargeBinary, FixedSizeBinary, Decimal(128-bit), Date(DAY), Time, Timestamp, "
            + "List, LargeList, Map, Struct";

    private ArrowTypeMapping() {}

    /** The Arrow schema of a Fluss row type; a {@code NOT NULL} row type is marked in the schema metadata. */
    public static Schema toArrowSchema(RowType rowType) {
        requireNonNull(rowType, "rowType is null");
        Map<String, String> metadata = rowType.isNullable() ? null : Map.of(NULLABLE, "false");
        return new Schema(toArrowFields(null, rowType), metadata);
    }

    /** The Arrow field for one Fluss column or value of the given type. */
    public static Field toArrowField(String name, DataType type) {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        return toArrowField(name, name, type, Map.of());
    }

    /** The Fluss row type of an Arrow schema, exact when the schema came from {@link #toArrowSchema}. */
    public static RowType toRowType(Schema schema) {
        requireNonNull(schema, "schema is null");
        boolean nullable = !"false".equals(schema.getCustomMetadata().get(NULLABLE));
        return toRowType(null, schema.getFields(), nullable);
    }

    /** The Fluss type of an Arrow field, exact when the field came from {@link #toArrowField}. */
    public static DataType toFlussType(Field field) {
        requireNonNull(field, "field is null");
        return toFlussType(field.getName(), field);
    }

    // ---- Fluss -> Arrow

    private static List<Field> toArrowFields(String parentPath, RowType rowType) {
        List<Field> fields = new ArrayList<>();
        for (DataField dataField : rowType.getFields()) {
            Map<String, String> metadata = new LinkedHashMap<>();
            // Fluss assigns ids to table columns for schema evolution; -1 means none was assigned.
            if (dataField.getFieldId() >= 0) {
                metadata.put(FIELD_ID, Integer.toString(dataField.getFieldId()));
            }
            dataField.getDescription().ifPresent(description -> metadata.put(DESCRIPTION, description));
            String name = dataField.getName();
            fields.add(toArrowField(child(parentPath, name), name, dataField.getType(), metadata));
        }
        return fields;
    }

    private static Field toArrowField(String path, String name, DataType type, Map<String, String> fieldMetadata) {
        Map<String, String> metadata = new LinkedHashMap<>(fieldMetadata);
        metadata.putAll(detailsArrowCannotExpress(type));
        FieldType fieldType =
                new FieldType(type.isNullable(), toArrowType(path, type), null, metadata.isEmpty() ? null : metadata);
        return new Field(name, fieldType, arrowChildren(path, type));
    }

    private static ArrowType toArrowType(String path, DataType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return ArrowType.Bool.INSTANCE;
            case TINYINT:
                return new ArrowType.Int(8, true);
            case SMALLINT:
                return new ArrowType.Int(16, true);
            case INTEGER:
                return new ArrowType.Int(32, true);
            case BIGINT:
                return new ArrowType.Int(64, true);
            case FLOAT:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case DOUBLE:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case CHAR:
            case STRING:
                return ArrowType.Utf8.INSTANCE;
            case BINARY:
                return new ArrowType.FixedSizeBinary(((BinaryType) type).getLength());
            case BYTES:
                return ArrowType.Binary.INSTANCE;
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return new ArrowType.Decimal(decimal.getPrecision(), decimal.getScale(), 128);
            case DATE:
                return new ArrowType.Date(DateUnit.DAY);
            case TIME_WITHOUT_TIME_ZONE:
                TimeUnit unit = unitOf(precisionOf(type));
                return new ArrowType.Time(unit, timeBitWidth(unit));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new ArrowType.Timestamp(unitOf(precisionOf(type)), null);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new ArrowType.Timestamp(unitOf(precisionOf(type)), LTZ_ZONE);
            case ARRAY:
                return ArrowType.List.INSTANCE;
            case MAP:
                return new ArrowType.Map(false);
            case ROW:
                return ArrowType.Struct.INSTANCE;
            default:
                throw new IllegalArgumentException(String.format(
                        "Field '%s' has unsupported Fluss type %s. Supported Fluss types: %s",
                        path, type, SUPPORTED_FLUSS));
        }
    }

    private static List<Field> arrowChildren(String path, DataType type) {
        switch (type.getTypeRoot()) {
            case ARRAY:
                DataType elementType = ((ArrayType) type).getElementType();
                return List.of(toArrowField(child(path, "element"), "element", elementType, Map.of()));
            case MAP:
                MapType map = (MapType) type;
                String entriesPath = child(path, "entries");
                Field key = toArrowField(child(entriesPath, "key"), "key", map.getKeyType(), Map.of());
                Field value = toArrowField(child(entriesPath, "value"), "value", map.getValueType(), Map.of());
                FieldType entries = FieldType.notNullable(ArrowType.Struct.INSTANCE);
                return List.of(new Field("entries", entries, List.of(key, value)));
            case ROW:
                return toArrowFields(path, (RowType) type);
            default:
                return List.of();
        }
    }

    private static Map<String, String> detailsArrowCannotExpress(DataType type) {
        switch (type.getTypeRoot()) {
            case CHAR:
                String length = Integer.toString(((CharType) type).getLength());
                return Map.of(TYPE_ROOT, DataTypeRoot.CHAR.name(), LENGTH, length);
            case TIME_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                int precision = precisionOf(type);
                boolean unitSaysItAll = precision == defaultPrecision(unitOf(precision));
                return unitSaysItAll ? Map.of() : Map.of(PRECISION, Integer.toString(precision));
            default:
                return Map.of();
        }
    }

    // ---- Arrow -> Fluss

    private static RowType toRowType(String parentPath, List<Field> children, boolean nullable) {
        List<DataField> fields = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Field child : children) {
            String path = child(parentPath, child.getName());
            if (!names.add(child.getName())) {
                throw new IllegalArgumentException(String.format(
                        "Field '%s' appears twice; Fluss row fields need unique names", path));
            }
            String description = child.getMetadata().get(DESCRIPTION);
            int fieldId = intMetadata(path, child, FIELD_ID, -1);
            fields.add(new DataField(child.getName(), toFlussType(path, child), description, fieldId));
        }
        return new RowType(nullable, fields);
    }

    private static DataType toFlussType(String path, Field field) {
        if (field.getDictionary() != null) {
            throw unsupported(path, field, "dictionary-encoded vectors hold indices, not the values Fluss stores");
        }
        DataType type = flussTypeOf(path, field).copy(field.isNullable());
        String root = field.getMetadata().get(TYPE_ROOT);
        if (root != null && !root.equals(type.getTypeRoot().name())) {
            throw unsupported(path, field, String.format(
                    "its metadata %s=%s contradicts the Arrow type, which maps to %s",
                    TYPE_ROOT, root, type.getTypeRoot()));
        }
        return type;
    }

    private static DataType flussTypeOf(String path, Field field) {
        ArrowType type = field.getType();
        switch (type.getTypeID()) {
            case Bool:
                return DataTypes.BOOLEAN();
            case Int:
                return integerType(path, field, (ArrowType.Int) type);
            case FloatingPoint:
                switch (((ArrowType.FloatingPoint) type).getPrecision()) {
                    case SINGLE:
                        return DataTypes.FLOAT();
                    case DOUBLE:
                        return DataTypes.DOUBLE();
                    default:
                        throw unsupported(path, field, "Fluss has no 16-bit floating point type");
                }
            case Utf8:
            case LargeUtf8:
                return isChar(field) ? DataTypes.CHAR(charLength(path, field)) : DataTypes.STRING();
            case Binary:
            case LargeBinary:
                return DataTypes.BYTES();
            case FixedSizeBinary:
                int width = ((ArrowType.FixedSizeBinary) type).getByteWidth();
                if (width < BinaryType.MIN_LENGTH) {
                    throw unsupported(path, field, "Fluss BINARY needs a length of at least " + BinaryType.MIN_LENGTH);
                }
                return DataTypes.BINARY(width);
            case Decimal:
                return decimalType(path, field, (ArrowType.Decimal) type);
            case Date:
                if (((ArrowType.Date) type).getUnit() != DateUnit.DAY) {
                    // Fluss DATE is a 32-bit day count; milliseconds would need rewriting every value, not a mapping.
                    throw unsupported(path, field,
                            "Fluss DATE stores 32-bit days since epoch, Date(MILLISECOND) stores 64-bit milliseconds");
                }
                return DataTypes.DATE();
            case Time:
                ArrowType.Time time = (ArrowType.Time) type;
                if (time.getBitWidth() != timeBitWidth(time.getUnit())) {
                    throw unsupported(path, field, "a " + time.getUnit() + " time must be "
                            + timeBitWidth(time.getUnit()) + "-bit");
                }
                return DataTypes.TIME(precision(path, field, time.getUnit()));
            case Timestamp:
                ArrowType.Timestamp timestamp = (ArrowType.Timestamp) type;
                int precision = precision(path, field, timestamp.getUnit());
                // Any zone means the values are instants, whatever zone the producer chose to display them in.
                return timestamp.getTimezone() == null
                        ? DataTypes.TIMESTAMP(precision)
                        : DataTypes.TIMESTAMP_LTZ(precision);
            case List:
            case LargeList:
                Field element = onlyChild(path, field);
                return DataTypes.ARRAY(toFlussType(child(path, element.getName()), element));
            case Map:
                return mapType(path, field);
            case Struct:
                return toRowType(path, field.getChildren(), true);
            default:
                throw unsupported(path, field, "no Fluss type matches it");
        }
    }

    private static DataType integerType(String path, Field field, ArrowType.Int type) {
        if (!type.getIsSigned()) {
            throw unsupported(path, field, "Fluss integers are signed");
        }
        switch (type.getBitWidth()) {
            case 8:
                return DataTypes.TINYINT();
            case 16:
                return DataTypes.SMALLINT();
            case 32:
                return DataTypes.INT();
            case 64:
                return DataTypes.BIGINT();
            default:
                throw unsupported(path, field, "Fluss integers are 8, 16, 32 or 64 bits wide");
        }
    }

    private static DataType decimalType(String path, Field field, ArrowType.Decimal type) {
        // Fluss writes every decimal in 16 bytes; Decimal32/64/256 vectors would not line up with its buffers.
        if (type.getBitWidth() != 128) {
            throw unsupported(path, field, "Fluss decimals are 128-bit");
        }
        if (type.getPrecision() < DecimalType.MIN_PRECISION || type.getPrecision() > DecimalType.MAX_PRECISION
                || type.getScale() < DecimalType.MIN_SCALE || type.getScale() > type.getPrecision()) {
            throw unsupported(path, field, String.format(
                    "Fluss DECIMAL needs a precision of %d to %d and a scale of %d to the precision",
                    DecimalType.MIN_PRECISION, DecimalType.MAX_PRECISION, DecimalType.MIN_SCALE));
        }
        return DataTypes.DECIMAL(type.getPrecision(), type.getScale());
    }

    private static DataType mapType(String path, Field field) {
        Field entries = onlyChild(path, field);
        if (!(entries.getType() instanceof ArrowType.Struct) || entries.getChildren().size() != 2) {
            throw unsupported(path, field, "a map needs one struct child holding a key and a value");
        }
        // Producers name these differently ("entries"/"key_value", "key"/"keys"); position is what Arrow defines.
        String entriesPath = child(path, entries.getName());
        Field key = entries.getChildren().get(0);
        Field value = entries.getChildren().get(1);
        return DataTypes.MAP(
                toFlussType(child(entriesPath, key.getName()), key),
                toFlussType(child(entriesPath, value.getName()), value));
    }

    private static Field onlyChild(String path, Field field) {
        if (field.getChildren().size() != 1) {
            throw unsupported(path, field, "it must have exactly one child, not " + field.getChildren().size());
        }
        return field.getChildren().get(0);
    }

    private static boolean isChar(Field field) {
        return DataTypeRoot.CHAR.name().equals(field.getMetadata().get(TYPE_ROOT));
    }

    private static int charLength(String path, Field field) {
        int length = intMetadata(path, field, LENGTH, -1);
        if (length < CharType.MIN_LENGTH) {
            throw unsupported(path, field, String.format(
                    "a CHAR field needs metadata %s of at least %d", LENGTH, CharType.MIN_LENGTH));
        }
        return length;
    }

    /** The precision a time unit stands for, unless metadata names a finer one that fits the same unit. */
    private static int precision(String path, Field field, TimeUnit unit) {
        int precision = intMetadata(path, field, PRECISION, defaultPrecision(unit));
        if (precision < 0 || precision > 9 || unitOf(precision) != unit) {
            throw unsupported(path, field, String.format(
                    "its metadata %s=%d does not fit unit %s, which holds precision %s",
                    PRECISION, precision, unit, precisionRange(unit)));
        }
        return precision;
    }

    private static int intMetadata(String path, Field field, String key, int absent) {
        String value = field.getMetadata().get(key);
        if (value == null) {
            return absent;
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw unsupported(path, field, String.format("its metadata %s='%s' is not a whole number", key, value));
        }
    }

    private static IllegalArgumentException unsupported(String path, Field field, String reason) {
        return new IllegalArgumentException(String.format(
                "Field '%s' has unsupported Arrow type %s: %s. Supported Arrow types: %s",
                path, field.getType(), reason, SUPPORTED_ARROW));
    }

    // ---- precision <-> unit, shared by both directions

    private static int precisionOf(DataType type) {
        if (type instanceof TimeType) {
            return ((TimeType) type).getPrecision();
        }
        if (type instanceof TimestampType) {
            return ((TimestampType) type).getPrecision();
        }
        return ((LocalZonedTimestampType) type).getPrecision();
    }

    private static TimeUnit unitOf(int precision) {
        return EpochUnits.unitOfPrecision(precision);
    }

    private static int defaultPrecision(TimeUnit unit) {
        switch (unit) {
            case SECOND:
                return 0;
            case MILLISECOND:
                return 3;
            case MICROSECOND:
                return 6;
            default:
                return 9;
        }
    }

    private static String precisionRange(TimeUnit unit) {
        int max = defaultPrecision(unit);
        return max == 0 ? "0" : (max - 2) + "-" + max;
    }

    /** Arrow ties a time's width to its unit: seconds and milliseconds fit 32 bits, finer units need 64. */
    private static int timeBitWidth(TimeUnit unit) {
        return unit == TimeUnit.SECOND || unit == TimeUnit.MILLISECOND ? 32 : 64;
    }

    private static String child(String parentPath, String name) {
        return parentPath == null ? name : parentPath + "." + name;
    }
}
