package dev.riffle.sql.jdbc;

import dev.riffle.sql.exec.PlanCache;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.runtime.Bindable;

/**
 * Calcite evaluates a statement's constants (such as {@code CAST('abc' AS BIGINT)}, which implicit
 * coercion makes of {@code id = 'abc'}) when the generated class is first used; a failure there
 * is an {@link ExceptionInInitializerError}, which JDBC callers do not expect and which kills a
 * shell; evaluated per row, it is a bare {@link NumberFormatException}. This wraps a prepared
 * statement so that either becomes an error naming the value and the likely cause.
 */
final class ConstantFailures {
    private ConstantFailures() {}

    static <T> CalciteSignature<T> guard(CalciteSignature<T> signature) {
        if (signature.statementType == Meta.StatementType.OTHER_DDL) {
            return signature; // DDL ran while preparing; it has nothing to enumerate
        }
        AtomicBoolean failed = new AtomicBoolean();
        // A generated class whose constants failed cannot be used again (the JVM refuses it), so a
        // plan kept for reuse is dropped once it failed (PlanCache reads this).
        // (a copy: Calcite hands out an immutable map for a plan without parameters, SELECT 1)
        Map<String, Object> internal = new LinkedHashMap<>(signature.internalParameters);
        internal.put(PlanCache.FAILED, failed);
        Bindable<T> bindable = context -> {
            try {
                return guarded(signature.enumerable(context), failed);
            } catch (ExceptionInInitializerError e) {
                // an INSERT writes while it is bound: its constants fail there
                failed.set(true);
                throw translated(e.getCause() == null ? e : e.getCause());
            }
        };
        return new CalciteSignature<>(signature.sql, signature.parameters, internal,
                signature.rowType, signature.columns, signature.cursorFactory, signature.rootSchema,
                signature.getCollationList(), -1, bindable, signature.statementType);
    }

    private static <T> Enumerable<T> guarded(Enumerable<T> rows, AtomicBoolean failed) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<T> enumerator() {
                Enumerator<T> inner;
                try {
                    inner = rows.enumerator();
                } catch (ExceptionInInitializerError e) {
                    failed.set(true);
                    throw translated(e.getCause() == null ? e : e.getCause());
                } catch (NumberFormatException e) {
                    failed.set(true);
                    throw translated(e);
                }
                return new Enumerator<>() {
                    @Override
                    public T current() {
                        return inner.current();
                    }

                    @Override
                    public boolean moveNext() {
                        try {
                            return inner.moveNext();
                        } catch (ExceptionInInitializerError e) {
                            failed.set(true);
                            throw translated(e.getCause() == null ? e : e.getCause());
                        } catch (NumberFormatException e) {
                            failed.set(true);
                            throw translated(e);
                        }
                    }

                    @Override
                    public void reset() {
                        inner.reset();
                    }

                    @Override
                    public void close() {
                        inner.close();
                    }
                };
            }
        };
    }

    private static IllegalArgumentException translated(Throwable cause) {
        String hint = cause instanceof NumberFormatException
                ? " (a string compared with or assigned to a numeric column? write the number without quotes)" : "";
        return new IllegalArgumentException("A constant of the statement cannot be converted to the type it is"
                + " used as: " + cause.getMessage() + hint, cause);
    }
}
