package dev.riffle.gateway.http;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.exception.DatabaseNotExistException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * What every handler works with: the gateway's Fluss connection and admin, its Arrow allocator,
 * and its limits. Waits on Fluss futures with the request timeout, and resolves the
 * {@code {db}}/{@code {table}} of a request to a table or a 404 that names what exists.
 *
 * <p>With per-principal connections ({@code --auth basic}) each request runs on its user's
 * connection, bound to the handler's thread by {@link BasicAuth}; {@link #connection()} and
 * {@link #admin()} then answer that one, and refuse to fall back to the gateway's own.
 */
public final class Backend {
    private final FlussConnection connection;
    private final BufferAllocator allocator;
    private final Riffle riffle;
    private final Limits limits;
    private final boolean perPrincipal;
    private final ThreadLocal<FlussConnection> bound = new ThreadLocal<>();
    private final Executor responses;

    /**
     * @param maxBodyBytes the largest request body accepted
     * @param requestTimeout how long one Fluss call (metadata, write, lookup) may take
     * @param scanTimeout how long one bounded scan may take
     * @param maxKeys the most keys one lookup, prefix lookup or delete request may carry
     */
    public record Limits(long maxBodyBytes, Duration requestTimeout, Duration scanTimeout, int maxKeys) {
        public Limits {
            if (maxBodyBytes <= 0 || maxKeys <= 0) {
                throw new IllegalArgumentException("limits must be positive");
            }
            requireNonNull(requestTimeout, "requestTimeout is null");
            requireNonNull(scanTimeout, "scanTimeout is null");
        }
    }

    /**
     * @param connection the gateway's own connection ({@code /ready}; every request when not
     *     {@code perPrincipal})
     * @param perPrincipal whether requests must run on a connection bound with {@link #bind}
     * @param responses the server's threads, which answer requests whose Fluss call completed
     */
    public Backend(FlussConnection connection, BufferAllocator allocator, Limits limits, boolean perPrincipal,
            Executor responses) {
        this.perPrincipal = perPrincipal;
        this.responses = requireNonNull(responses, "responses is null");
        this.connection = requireNonNull(connection, "connection is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.riffle = Riffle.using(connection, allocator);
    }

    /** Whether every request runs on its principal's own connection ({@code --auth basic}). */
    public boolean perPrincipal() {
        return perPrincipal;
    }

    /** The connection this request runs on: its principal's, or the gateway's own. */
    public FlussConnection connection() {
        FlussConnection principal = bound.get();
        if (principal != null) {
            return principal;
        }
        if (perPrincipal) {
            throw new IllegalStateException("No principal's connection is bound to this request");
        }
        return connection;
    }

    public Admin admin() {
        return connection().getOrCreateAdmin();
    }

    /** The gateway's own connection's admin, for its health checks (never for a user's request). */
    public Admin serviceAdmin() {
        return connection.getOrCreateAdmin();
    }

    /** Runs this thread's requests on {@code principal} until {@link #unbind()}. */
    public void bind(FlussConnection principal) {
        bound.set(requireNonNull(principal, "principal is null"));
    }

    public void unbind() {
        bound.remove();
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    public Riffle riffle() {
        FlussConnection principal = bound.get();
        return principal == null && !perPrincipal ? riffle : Riffle.using(connection(), allocator);
    }

    public Limits limits() {
        return limits;
    }

    /** Waits for a Fluss call; its failure is rethrown as it is (for {@link ErrorMapper}), a timeout is a 504. */
    public <T> T await(CompletableFuture<T> future, String what) {
        try {
            return future.get(limits.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "interrupted", "Interrupted while waiting for " + what);
        } catch (ExecutionException e) {
            Throwable cause = ErrorMapper.unwrap(e);
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(what + " failed: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new ApiException(504, "timeout", what + " did not finish within " + limits.requestTimeout());
        }
    }

    /**
     * A Fluss call that a request answers asynchronously: {@code future}'s outcome, or, when it
     * has not finished within the request timeout, a 504 (the call itself is left to finish).
     */
    public <T> CompletableFuture<T> within(CompletableFuture<T> future, String what) {
        return future.copy().orTimeout(limits.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                        ErrorMapper.unwrap(failure) instanceof TimeoutException
                                ? new ApiException(504, "timeout", what + " did not finish within "
                                        + limits.requestTimeout())
                                : ErrorMapper.unwrap(failure)));
    }

    /**
     * Where an asynchronous request is answered once its Fluss call completed: on the server's
     * threads, not the Fluss client's, whose network thread would otherwise wait on a client that
     * reads its answers slowly, and hold up every other caller's lookups meanwhile.
     */
    public Executor responses() {
        return responses;
    }

    /** The table named by the request's {@code {db}} and {@code {table}} path parameters. */
    public TableInfo tableInfo(Context ctx) {
        return tableInfo(tablePath(ctx));
    }

    public static TablePath tablePath(Context ctx) {
        return TablePath.of(ctx.pathParam("db"), ctx.pathParam("table"));
    }

    public TableInfo tableInfo(TablePath path) {
        try {
            return await(admin().getTableInfo(path), "Looking up table " + path);
        } catch (TableNotExistException e) {
            throw tableNotFound(path);
        }
    }

    /** An open Fluss table for writing or looking up; close it when done. */
    public Table table(TablePath path) {
        try {
            return connection().getTable(path);
        } catch (RuntimeException e) {
            if (ErrorMapper.unwrap(e) instanceof TableNotExistException
                    || e.getCause() instanceof TableNotExistException) {
                throw tableNotFound(path);
            }
            throw e;
        }
    }

    /** A 404 that says whether the database or the table is missing, and what does exist. */
    public ApiException tableNotFound(TablePath path) {
        List<String> tables;
        try {
            tables = await(admin().listTables(path.getDatabaseName()), "Listing tables");
        } catch (DatabaseNotExistException e) {
            return databaseNotFound(path.getDatabaseName());
        }
        return ApiException.notFound("table_not_found", "Table " + path + " does not exist; tables in database "
                + path.getDatabaseName() + ": " + tables.stream().sorted().toList());
    }

    public ApiException databaseNotFound(String database) {
        List<String> databases = await(admin().listDatabases(), "Listing databases");
        return ApiException.notFound("database_not_found", "Database " + database + " does not exist; databases: "
                + databases.stream().sorted().toList());
    }
}
