package dev.riffle.sql.exec;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's functions about sessions, answered by the statement's {@link SessionHost}:
 * {@code pg_backend_pid()}, {@code pg_cancel_backend(pid)} and {@code pg_terminate_backend(pid)}.
 * Each is evaluated when the statement runs, never while it is planned (without a host it fails,
 * and a planner that tries to fold a constant call leaves it as it is).
 *
 * <pre>{@code
 * SELECT pg_cancel_backend(1042);
 * }</pre>
 */
public final class SessionFunctions {
    private static final Map<String, Function> FUNCTIONS = Map.of(
            "pg_backend_pid", new HostFunction("backendPid", SqlTypeName.INTEGER),
            "pg_cancel_backend", new HostFunction("cancelBackend", SqlTypeName.BOOLEAN, SqlTypeName.INTEGER),
            "pg_terminate_backend", new HostFunction("terminateBackend", SqlTypeName.BOOLEAN, SqlTypeName.INTEGER));

    private SessionFunctions() {}

    /** The names of the functions (as a schema lists its functions). */
    public static Set<String> names() {
        return FUNCTIONS.keySet();
    }

    /** The function called {@code name} (none when there is no such function). */
    public static Collection<Function> named(String name) {
        Function function = FUNCTIONS.get(name);
        return function == null ? List.of() : List.of(function);
    }

    // What the generated code calls, with the statement's context.

    public static int backendPid(DataContext root) {
        return host(root, "pg_backend_pid").backendPid();
    }

    public static boolean cancelBackend(DataContext root, int pid) {
        return host(root, "pg_cancel_backend").cancelBackend(pid);
    }

    public static boolean terminateBackend(DataContext root, int pid) {
        return host(root, "pg_terminate_backend").terminateBackend(pid);
    }

    private static SessionHost host(DataContext root, String function) {
        if (root.get(SessionHost.KEY) instanceof SessionHost host) {
            return host;
        }
        throw new UnsupportedOperationException(function + " answers about PostgreSQL sessions: it runs only in a"
                + " statement of a Riffle server's PostgreSQL port");
    }

    /** A function implemented by a static method of this class that takes the statement's context first. */
    private static final class HostFunction implements ScalarFunction, ImplementableFunction {
        private final Method method;
        private final SqlTypeName returns;
        private final List<FunctionParameter> parameters;

        HostFunction(String method, SqlTypeName returns, SqlTypeName... parameters) {
            this.method = find(method);
            this.returns = returns;
            List<FunctionParameter> list = new ArrayList<>();
            for (int i = 0; i < parameters.length; i++) {
                int ordinal = i;
                SqlTypeName type = parameters[i];
                list.add(new FunctionParameter() {
                    @Override
                    public int getOrdinal() {
                        return ordinal;
                    }

                    @Override
                    public String getName() {
                        return "arg" + ordinal;
                    }

                    @Override
                    public RelDataType getType(RelDataTypeFactory typeFactory) {
                        return typeFactory.createSqlType(type);
                    }

                    @Override
                    public boolean isOptional() {
                        return false;
                    }
                });
            }
            this.parameters = List.copyOf(list);
        }

        private static Method find(String name) {
            for (Method method : SessionFunctions.class.getMethods()) {
                if (method.getName().equals(name)) {
                    return method;
                }
            }
            throw new IllegalArgumentException("No method " + name);
        }

        @Override
        public List<FunctionParameter> getParameters() {
            return parameters;
        }

        @Override
        public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
            return typeFactory.createTypeWithNullability(typeFactory.createSqlType(returns), true);
        }

        @Override
        public CallImplementor getImplementor() {
            return RexImpTable.createImplementor((translator, call, operands) -> {
                List<Expression> arguments = new ArrayList<>();
                arguments.add(DataContext.ROOT);
                Type[] types = method.getParameterTypes();
                for (int i = 0; i < operands.size(); i++) {
                    arguments.add(Expressions.convert_(operands.get(i), types[i + 1]));
                }
                return Expressions.call(method, arguments);
            }, NullPolicy.STRICT, false);
        }
    }
}
