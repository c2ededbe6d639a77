package dev.riffle.pgwire.catalog;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The rows answering a catalog query, every value as PostgreSQL's text (empty for NULL), under
 * the column names psql's query gives them.
 *
 * <pre>{@code
 * CatalogAnswer answer = catalog.answer(query);
 * answer.rows().get(0).get(0);   // Optional[shop]
 * }</pre>
 */
public record CatalogAnswer(List<String> columns, List<List<Optional<String>>> rows) {
    public CatalogAnswer {
        columns = List.copyOf(columns);
        List<List<Optional<String>>> copied = new ArrayList<>(rows.size());
        for (List<Optional<String>> row : requireNonNull(rows, "rows is null")) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException("A row of " + row.size() + " values under " + columns.size()
                        + " columns");
            }
            copied.add(Collections.unmodifiableList(new ArrayList<>(row)));
        }
        rows = Collections.unmodifiableList(copied);
    }
}
