package dev.riffle.core.read;

import dev.riffle.core.scan.ArrowLogScanner;
import java.util.ArrayList;
import java.util.List;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;

/**
 * The columns a changelog read adds after the table's: {@code _change_type}, {@code _log_offset}
 * and {@code _commit_timestamp}. A changelog read's filter may test them too: it is built over
 * {@link #rowType(RowType)}, the table's fields followed by these.
 *
 * <pre>{@code
 * Predicate deletes = new PredicateBuilder(ChangelogColumns.rowType(table.getRowType()))
 *         .equal(table.getRowType().getFieldCount(), BinaryString.fromString("-D"));
 * }</pre>
 */
public final class ChangelogColumns {
    /** Their names, in the order they follow the table's columns. */
    public static final List<String> NAMES = List.of(ArrowLogScanner.CHANGE_TYPE_COLUMN,
            ArrowLogScanner.LOG_OFFSET_COLUMN, ArrowLogScanner.COMMIT_TIMESTAMP_COLUMN);

    private ChangelogColumns() {}

    /** The table's row type followed by the changelog columns. */
    public static RowType rowType(RowType table) {
        List<DataField> fields = new ArrayList<>(table.getFields());
        fields.add(new DataField(ArrowLogScanner.CHANGE_TYPE_COLUMN, DataTypes.STRING().copy(false)));
        fields.add(new DataField(ArrowLogScanner.LOG_OFFSET_COLUMN, DataTypes.BIGINT().copy(false)));
        fields.add(new DataField(ArrowLogScanner.COMMIT_TIMESTAMP_COLUMN, DataTypes.TIMESTAMP_LTZ(3).copy(false)));
        return new RowType(fields);
    }
}
