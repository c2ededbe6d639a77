package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

/**
 * An input read once per execution and replayed from memory: the inner side of a nested-loop
 * join, which Calcite's join enumerates again for every outer row. Over a Fluss scan each of those
 * enumerations would be a new read of the table; this reads it on the first and keeps its rows.
 * Generated code makes one per execution ({@code new ReplayedRows(rows)}), so every execution
 * still reads the table as it is then.
 *
 * <pre>{@code
 * Enumerable<Object[]> inner = new ReplayedRows<>(scan);   // the scan runs at the first enumerator()
 * }</pre>
 */
public final class ReplayedRows<T> extends AbstractEnumerable<T> {
    private final Enumerable<T> input;
    private List<T> rows;

    public ReplayedRows(Enumerable<T> input) {
        this.input = requireNonNull(input, "input is null");
    }

    @Override
    public Enumerator<T> enumerator() {
        if (rows == null) {
            rows = input.toList();
        }
        return Linq4j.enumerator(rows);
    }
}
