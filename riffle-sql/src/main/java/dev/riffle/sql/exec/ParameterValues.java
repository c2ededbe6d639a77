package dev.riffle.sql.exec;

import dev.riffle.core.exception.InvalidStatementException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;

/**
 * The {@code ?} parameters of one execution of a {@link DirectRead}, as Calcite's generated code
 * would find them ({@code "?0"}, {@code "?1"}, ...). A direct read needs nothing else of a
 * {@link DataContext}.
 */
final class ParameterValues implements DataContext {
    private final List<Object> values;

    ParameterValues(List<Object> values) {
        this.values = new ArrayList<>(values);
    }

    @Override
    public Object get(String name) {
        if (name.startsWith("?")) {
            int index = Integer.parseInt(name.substring(1));
            if (index >= values.size()) {
                throw new InvalidStatementException("Parameter " + (index + 1) + " is not bound; the statement got "
                        + values.size() + " parameter(s)");
            }
            return values.get(index);
        }
        return null;
    }

    @Override
    public SchemaPlus getRootSchema() {
        throw new UnsupportedOperationException("A direct read has no schema context");
    }

    @Override
    public JavaTypeFactory getTypeFactory() {
        throw new UnsupportedOperationException("A direct read has no type factory");
    }

    @Override
    public QueryProvider getQueryProvider() {
        throw new UnsupportedOperationException("A direct read has no query provider");
    }
}
