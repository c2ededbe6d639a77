package dev.riffle.core.schema;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidAlterationException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TablePath;

/**
 * The changes of one {@code ALTER TABLE}, checked where Fluss 0.9 would answer with an unclear
 * error: a column added as NOT NULL (the server fails with an unknown error), a column added other
 * than last (the client throws before sending), the same column twice, nothing to change. What the
 * server explains itself (an option that cannot be altered, a column that exists, column and
 * option changes mixed) is left to it, so a newer cluster that allows more is not refused here.
 * SQL and HTTP both alter tables through this class.
 *
 * <pre>{@code
 * TableAlteration.of(TablePath.of("shop", "orders"),
 *         List.of(TableChange.addColumn("note", DataTypes.STRING(), null, TableChange.ColumnPosition.last())))
 *     .apply(admin, false).get();
 * }</pre>
 */
public record TableAlteration(TablePath table, List<TableChange> changes) {

    public TableAlteration {
        requireNonNull(table, "table is null");
        changes = List.copyOf(requireNonNull(changes, "changes is null"));
    }

    /**
     * @throws InvalidAlterationException naming the change Fluss would refuse
     */
    public static TableAlteration of(TablePath table, List<TableChange> changes) {
        TableAlteration alteration = new TableAlteration(table, changes);
        alteration.check();
        return alteration;
    }

    /** Sends the changes to the cluster; {@code ifExists} makes a missing table no error. */
    public CompletableFuture<Void> apply(Admin admin, boolean ifExists) {
        requireNonNull(admin, "admin is null");
        return admin.alterTable(table, changes, ifExists);
    }

    private void check() {
        if (changes.isEmpty()) {
            throw new InvalidAlterationException("Altering " + table + " needs at least one change: a column to add,"
                    + " an option to set or an option to reset");
        }
        Set<String> added = new HashSet<>();
        for (TableChange change : changes) {
            if (change instanceof TableChange.AddColumn add) {
                if (!add.getDataType().isNullable()) {
                    throw new InvalidAlterationException("Column '" + add.getName() + "' cannot be added to " + table
                            + " as " + add.getDataType() + ": rows written before it have no value, so an added"
                            + " column must be nullable (leave out NOT NULL)");
                }
                if (add.getPosition() != TableChange.ColumnPosition.last()) {
                    throw new InvalidAlterationException("Column '" + add.getName() + "' cannot be added to " + table
                            + " at " + add.getPosition() + ": Fluss adds columns last");
                }
                if (!added.add(add.getName())) {
                    throw new InvalidAlterationException("Column '" + add.getName() + "' is added to " + table
                            + " twice in one change");
                }
            } else if (change instanceof TableChange.SetOption set) {
                requireKey(set.getKey());
            } else if (change instanceof TableChange.ResetOption reset) {
                requireKey(reset.getKey());
            } else {
                throw new InvalidAlterationException("Unsupported change of " + table + ": " + change
                        + "; Riffle adds columns and sets or resets options");
            }
        }
    }

    private void requireKey(String key) {
        if (key == null || key.isBlank()) {
            throw new InvalidAlterationException("An option of " + table + " to set or reset has an empty name");
        }
    }
}
