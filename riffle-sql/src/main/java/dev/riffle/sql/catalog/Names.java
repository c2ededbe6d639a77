package dev.riffle.sql.catalog;

import java.util.Collection;
import java.util.Optional;

/**
 * How a name written in a PostgreSQL statement finds a Fluss name: PostgreSQL folds unquoted names
 * to lower case and Fluss keeps the case a name was created with, so when no name matches
 * exactly, the one name that matches regardless of case is taken (two that differ only in case:
 * neither, the name must be written exactly).
 *
 * <pre>{@code
 * Names.ignoringCase("orders", List.of("Orders", "items"))   // Optional[Orders]
 * }</pre>
 */
final class Names {
    private Names() {}

    /** The one name among {@code names} equal to {@code written} but for case, when there is exactly one. */
    static Optional<String> ignoringCase(String written, Collection<String> names) {
        String found = null;
        for (String name : names) {
            if (name.equalsIgnoreCase(written)) {
                if (found != null) {
                    return Optional.empty();
                }
                found = name;
            }
        }
        return Optional.ofNullable(found);
    }
}
