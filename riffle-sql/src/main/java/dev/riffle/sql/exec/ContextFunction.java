package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A SQL function implemented by a public static method whose first parameter is the statement's
 * {@link DataContext} (where a server puts what the function asks about: the session, the catalog),
 * followed by the SQL arguments. Calcite's own reflective functions cannot see the context.
 * Evaluated when the statement runs: a planner folding a constant call gets the method's failure
 * (no context holds what it asks) and leaves the call as it is. A NULL argument makes the call NULL
 * without calling the method, as PostgreSQL's strict functions do, unless its parameter is of a
 * boxed type ({@code Integer}), which takes the NULL.
 *
 * <pre>{@code
 * Function f = new ContextFunction(SessionFunctions.class, "cancelBackend", SqlTypeName.BOOLEAN, SqlTypeName.INTEGER);
 * }</pre>
 */
public final class ContextFunction implements ScalarFunction, ImplementableFunction {
    private final Method method;
    private final java.util.function.Function<RelDataTypeFactory, RelDataType> returns;
    private final List<FunctionParameter> parameters;

    /**
     * @param owner the class with the method
     * @param method its name (one public static method of that name and {@code 1 + parameters.length} parameters)
     * @param returns the SQL type it returns (nullable)
     * @param parameters the SQL types of its arguments
     */
    public ContextFunction(Class<?> owner, String method, SqlTypeName returns, SqlTypeName... parameters) {
        this(owner, method, factory -> factory.createSqlType(requireNonNull(returns, "returns is null")), parameters);
    }

    /**
     * A function returning what is not one of {@link SqlTypeName}'s plain types (an array of text,
     * say): {@code returns} makes its type (made nullable).
     */
    public ContextFunction(Class<?> owner, String method,
            java.util.function.Function<RelDataTypeFactory, RelDataType> returns, SqlTypeName... parameters) {
        this.method = find(requireNonNull(owner, "owner is null"), requireNonNull(method, "method is null"),
                parameters.length + 1);
        this.returns = requireNonNull(returns, "returns is null");
        List<FunctionParameter> list = new ArrayList<>();
        for (int i = 0; i < parameters.length; i++) {
            list.add(parameter(i, parameters[i]));
        }
        this.parameters = List.copyOf(list);
    }

    private static FunctionParameter parameter(int ordinal, SqlTypeName type) {
        return new FunctionParameter() {
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
                return typeFactory.createTypeWithNullability(typeFactory.createSqlType(type), true);
            }

            @Override
            public boolean isOptional() {
                return false;
            }
        };
    }

    private static Method find(Class<?> owner, String name, int arity) {
        for (Method method : owner.getMethods()) {
            if (method.getName().equals(name) && method.getParameterCount() == arity
                    && method.getParameterTypes()[0] == DataContext.class) {
                return method;
            }
        }
        throw new IllegalArgumentException("No public static method " + name + "(DataContext, ...) of " + arity
                + " parameters in " + owner.getName());
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return parameters;
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
        return typeFactory.createTypeWithNullability(returns.apply(typeFactory), true);
    }

    @Override
    public CallImplementor getImplementor() {
        return RexImpTable.createImplementor((translator, call, operands) -> {
            List<Expression> arguments = new ArrayList<>();
            arguments.add(DataContext.ROOT);
            Type[] types = method.getParameterTypes();
            Expression anyNull = null;
            for (int i = 0; i < operands.size(); i++) {
                Expression operand = operands.get(i);
                arguments.add(Expressions.convert_(operand, types[i + 1]));
                // a NULL makes the call NULL (PostgreSQL's functions are strict), except for a
                // parameter of a boxed type, which takes the NULL (format_type(oid, NULL))
                if (Primitive.ofBox(types[i + 1]) == null && !Primitive.is(operand.getType())) {
                    Expression isNull = Expressions.equal(operand, Expressions.constant(null));
                    anyNull = anyNull == null ? isNull : Expressions.orElse(anyNull, isNull);
                }
            }
            Expression result = Expressions.call(method, arguments);
            if (anyNull == null) {
                return result;
            }
            Type boxed = Primitive.box(method.getReturnType());
            return Expressions.condition(anyNull, Expressions.constant(null, boxed), Expressions.convert_(result, boxed));
        }, NullPolicy.NONE, false);
    }
}
