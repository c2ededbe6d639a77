package dev.riffle.core.types;

import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;

/**
 * Which Arrow fields a client may send for which columns: a field fits a column when its Fluss
 * type (by {@link ArrowTypeMapping}) has the same kind (any string for CHAR and STRING, any
 * binary for BINARY and BYTES, any time unit for TIME and TIMESTAMP, a decimal of the same scale;
 * nested types element by element). The values themselves are read by the value layer. Every
 * surface that takes Arrow rows (HTTP writes, Flight SQL ingest) checks them with this rule.
 *
 * <pre>{@code
 * ArrowFieldFit.checkFits(field, columnType).ifPresent(problem -> { throw new IllegalArgumentException(problem); });
 * }</pre>
 */
public final class ArrowFieldFit {
    private ArrowFieldFit() {}

    /** What is wrong when values of {@code field} cannot be written to a column of {@code column}. */
    public static Optional<String> checkFits(Field field, DataType column) {
        DataType given;
        try {
            given = ArrowTypeMapping.toFlussType(field);
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
        return fits(given, column) ? Optional.empty()
                : Optional.of("Arrow type " + field.getType() + " (Fluss " + given.copy(true)
                        + ") cannot be written to a column of type " + column);
    }

    private static boolean fits(DataType given, DataType column) {
        DataTypeRoot g = given.getTypeRoot();
        DataTypeRoot c = column.getTypeRoot();
        switch (c) {
            case CHAR:
            case STRING:
                return g == DataTypeRoot.CHAR || g == DataTypeRoot.STRING;
            case BINARY:
            case BYTES:
                return g == DataTypeRoot.BINARY || g == DataTypeRoot.BYTES;
            case DECIMAL:
                return g == c && ((DecimalType) given).getScale() == ((DecimalType) column).getScale();
            case ARRAY:
                return g == c && fits(((ArrayType) given).getElementType(), ((ArrayType) column).getElementType());
            case MAP:
                return g == c && fits(((MapType) given).getKeyType(), ((MapType) column).getKeyType())
                        && fits(((MapType) given).getValueType(), ((MapType) column).getValueType());
            case ROW:
                if (g != c) {
                    return false;
                }
                RowType givenRow = (RowType) given;
                RowType columnRow = (RowType) column;
                if (!givenRow.getFieldNames().equals(columnRow.getFieldNames())) {
                    return false;
                }
                for (int i = 0; i < columnRow.getFieldCount(); i++) {
                    if (!fits(givenRow.getTypeAt(i), columnRow.getTypeAt(i))) {
                        return false;
                    }
                }
                return true;
            default:
                return g == c;
        }
    }
}
