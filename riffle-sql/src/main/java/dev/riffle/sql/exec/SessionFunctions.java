package dev.riffle.sql.exec;

import dev.riffle.core.exception.InvalidOptionException;
import dev.riffle.sql.statement.SessionHost;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.DataContext;
import org.apache.calcite.schema.Function;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's functions about sessions, answered by the statement's {@link SessionHost}:
 * {@code pg_backend_pid()}, {@code pg_cancel_backend(pid)}, {@code pg_terminate_backend(pid)},
 * {@code current_setting(name [, missing_ok])}, {@code set_config(name, value, is_local)}, and the
 * session's user ({@code current_user}, {@code session_user}, {@code user} call it).
 * Each is evaluated when the statement runs, never while it is planned (without a host it fails,
 * and a planner that tries to fold a constant call leaves it as it is).
 *
 * <pre>{@code
 * SELECT pg_cancel_backend(1042);
 * }</pre>
 */
public final class SessionFunctions {
    private static final Map<String, List<Function>> FUNCTIONS = Map.of(
            "pg_backend_pid", List.of(function("backendPid", SqlTypeName.INTEGER)),
            "pg_cancel_backend", List.of(function("cancelBackend", SqlTypeName.BOOLEAN, SqlTypeName.INTEGER)),
            "pg_terminate_backend", List.of(function("terminateBackend", SqlTypeName.BOOLEAN, SqlTypeName.INTEGER)),
            "current_setting", List.of(function("currentSetting", SqlTypeName.VARCHAR, SqlTypeName.VARCHAR),
                    function("currentSetting", SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.BOOLEAN)),
            "set_config", List.of(function("setConfig", SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR,
                    SqlTypeName.BOOLEAN)),
            "current_user", List.of(function("currentUser", SqlTypeName.VARCHAR)),
            "session_user", List.of(function("currentUser", SqlTypeName.VARCHAR)),
            "user", List.of(function("currentUser", SqlTypeName.VARCHAR)));

    private SessionFunctions() {}

    /** The names of the functions (as a schema lists its functions). */
    public static Set<String> names() {
        return FUNCTIONS.keySet();
    }

    /** The function called {@code name} (none when there is no such function). */
    public static Collection<Function> named(String name) {
        return FUNCTIONS.getOrDefault(name, List.of());
    }

    private static Function function(String method, SqlTypeName returns, SqlTypeName... parameters) {
        return new ContextFunction(SessionFunctions.class, method, returns, parameters);
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

    /** {@code current_setting(name)}: the session's value of a setting; an unknown one is an error. */
    public static String currentSetting(DataContext root, String name) {
        return host(root, "current_setting").setting(name).orElseThrow(() -> new InvalidOptionException(
                "unrecognized configuration parameter \"" + name + "\""));
    }

    /** {@code current_setting(name, missing_ok)}: as above, or null for an unknown one when {@code missingOk}. */
    public static String currentSetting(DataContext root, String name, boolean missingOk) {
        java.util.Optional<String> value = host(root, "current_setting").setting(name);
        if (value.isEmpty() && !missingOk) {
            throw new InvalidOptionException("unrecognized configuration parameter \"" + name + "\"");
        }
        return value.orElse(null);
    }

    /** {@code set_config(name, value, is_local)}: sets a setting of the session (for the session: Riffle has no transactions); answers the value. */
    public static String setConfig(DataContext root, String name, String value, boolean local) {
        return host(root, "set_config").set(name, value);
    }

    /** The user the session runs as ({@code current_user}, {@code session_user}, {@code user}). */
    public static String currentUser(DataContext root) {
        return host(root, "current_user").user();
    }

    private static SessionHost host(DataContext root, String function) {
        if (root.get(SessionHost.KEY) instanceof SessionHost host) {
            return host;
        }
        throw new UnsupportedOperationException(function + " answers about PostgreSQL sessions: it runs only in a"
                + " statement of a Riffle server's PostgreSQL port");
    }
}
