package dev.riffle.core.tables;

import static java.util.Objects.requireNonNull;

import java.util.function.Function;
import org.apache.fluss.metadata.TableInfo;

/**
 * A kind of value made from one table version's metadata alone (a route's key shape, how its rows
 * are rendered), kept by the session's {@link TableHandles} beside the table's handle, made once
 * per table id and schema and dropped with that handle. Two kinds are the same kind only when they
 * are the same object: keep each in a constant.
 *
 * <pre>{@code
 * static final SchemaDerived<RowShape> LOOKUP_KEY = SchemaDerived.of("lookup key", RowShape::lookupKey);
 * RowShape key = request.session().handles().derived(info, LOOKUP_KEY);
 * }</pre>
 *
 * @param <T> the value's type; immutable, as it is shared by the session's threads
 */
public final class SchemaDerived<T> {
    private final String name;
    private final Function<TableInfo, T> make;

    private SchemaDerived(String name, Function<TableInfo, T> make) {
        this.name = requireNonNull(name, "name is null");
        this.make = requireNonNull(make, "make is null");
    }

    /**
     * A kind named {@code name} (for messages), made by {@code make}, which must read only what a
     * table's id and schema fix (its columns and keys), not its properties, which an alteration
     * changes under the same schema. It runs while the handles hold that version's entry, so it
     * must not ask the same {@link TableHandles} for another derived value.
     */
    public static <T> SchemaDerived<T> of(String name, Function<TableInfo, T> make) {
        return new SchemaDerived<>(name, make);
    }

    T make(TableInfo info) {
        T made = make.apply(info);
        if (made == null) {
            throw new IllegalStateException("The " + name + " of " + info.getTablePath() + " was made as null");
        }
        return made;
    }

    @Override
    public String toString() {
        return name;
    }
}
