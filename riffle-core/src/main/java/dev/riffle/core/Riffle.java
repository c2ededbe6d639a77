package dev.riffle.core;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.DatabaseNotFoundException;
import dev.riffle.core.exception.InvalidReadException;
import dev.riffle.core.exception.TableNotFoundException;
import dev.riffle.core.read.LakeReads;
import dev.riffle.core.rpc.RetryingAdmin;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.DatabaseNotExistException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Riffle's entry point: a Fluss connection and an Arrow allocator, and the tables behind them.
 *
 * <pre>{@code
 * try (Riffle riffle = Riffle.connect("127.0.0.1:9123");
 *         ArrowReader rows = riffle.table("shop.orders").read().toArrowReader()) {
 *     while (rows.loadNextBatch()) {
 *         System.out.println(rows.getVectorSchemaRoot().getRowCount());
 *     }
 * }
 * }</pre>
 *
 * <p>Datalake-enabled tables are read through the lake side found on the classpath
 * ({@link LakeReads}, from riffle-lake), asked for once per {@code Riffle}; {@link #withLake}
 * gives another.
 */
public final class Riffle implements AutoCloseable {
    private final FlussConnection connection;
    private final boolean ownsConnection;
    private final BufferAllocator allocator;
    private final boolean ownsAllocator;
    /** The lake side: given, or found on first use. */
    private volatile Optional<LakeReads> lake;

    private Riffle(Connection connection, boolean ownsConnection, BufferAllocator allocator, boolean ownsAllocator,
            Optional<LakeReads> lake) {
        if (!(connection instanceof FlussConnection fluss)) {
            throw new IllegalArgumentException("Riffle needs the Fluss client's own Connection, got "
                    + connection.getClass().getName());
        }
        this.connection = fluss;
        this.ownsConnection = ownsConnection;
        this.allocator = allocator;
        this.ownsAllocator = ownsAllocator;
        this.lake = lake;
    }

    /** Connects to a Fluss cluster, e.g. {@code "127.0.0.1:9123"}. */
    public static Riffle connect(String bootstrapServers) {
        requireNonNull(bootstrapServers, "bootstrapServers is null");
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrapServers);
        return connect(conf);
    }

    /** Connects with a full Fluss client configuration. */
    public static Riffle connect(Configuration conf) {
        return new Riffle(ConnectionFactory.createConnection(requireNonNull(conf, "conf is null")), true,
                new RootAllocator(), true, Optional.empty());
    }

    /** Uses an existing connection and allocator; closing this Riffle closes neither. */
    public static Riffle using(Connection connection, BufferAllocator allocator) {
        return new Riffle(requireNonNull(connection, "connection is null"), false,
                requireNonNull(allocator, "allocator is null"), false, Optional.empty());
    }

    /**
     * This Riffle's connection and allocator with {@code lake} as the lake side (e.g. one whose
     * lake settings were found once for many connections); closing the result closes neither.
     */
    public Riffle withLake(LakeReads lake) {
        return new Riffle(connection, false, allocator, false, Optional.of(requireNonNull(lake, "lake is null")));
    }

    /**
     * This Riffle's connection and lake side, allocating from {@code allocator} (e.g. a child of
     * this one's, for one part of a server); closing the result closes neither.
     */
    public Riffle withAllocator(BufferAllocator allocator) {
        return new Riffle(connection, false, requireNonNull(allocator, "allocator is null"), false, lake);
    }

    /**
     * The lake side datalake-enabled tables are read through.
     *
     * @throws dev.riffle.core.exception.UnsupportedTableException when no lake side is on the classpath
     */
    public LakeReads lake() {
        Optional<LakeReads> known = lake;
        if (known.isEmpty()) {
            known = Optional.of(LakeReads.forConnection(connection));
            lake = known;
        }
        return known.get();
    }

    /** A table by {@code database.table}. */
    public RiffleTable table(String qualifiedName) {
        requireNonNull(qualifiedName, "qualifiedName is null");
        int dot = qualifiedName.indexOf('.');
        if (dot <= 0 || dot == qualifiedName.length() - 1 || qualifiedName.indexOf('.', dot + 1) >= 0) {
            throw new InvalidReadException("Table name '" + qualifiedName + "' must be DATABASE.TABLE");
        }
        return table(TablePath.of(qualifiedName.substring(0, dot), qualifiedName.substring(dot + 1)));
    }

    /**
     * A table by path; its metadata is read now.
     *
     * @throws TableNotFoundException when the table does not exist, naming the tables that do
     */
    public RiffleTable table(TablePath path) {
        return table(findTable(path).orElseThrow(() -> notFound(path, null)));
    }

    /**
     * The metadata of the table at {@code path} as the cluster gives it now, or empty when there is
     * no such table (without listing what exists, as {@link #table(TablePath)} does).
     */
    public Optional<TableInfo> findTable(TablePath path) {
        requireNonNull(path, "path is null");
        try {
            return Optional.of(admin().getTableInfo(path).get(60, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while looking up " + path, e);
        } catch (Exception e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof TableNotExistException) {
                return Optional.empty();
            }
            throw new IllegalStateException("Cannot look up table " + path + ": " + cause.getMessage(), cause);
        }
    }

    /** The table {@code info} describes, without asking the cluster again. */
    public RiffleTable table(TableInfo info) {
        return new RiffleTable(connection, requireNonNull(info, "info is null"), allocator, this::lake);
    }

    /**
     * The connection's admin, its read-only calls retried after a metadata refresh when a tablet
     * server is gone ({@link RetryingAdmin}); the connection owns it.
     */
    public Admin admin() {
        return RetryingAdmin.of(connection);
    }

    public FlussConnection connection() {
        return connection;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    @Override
    public void close() throws Exception {
        try {
            if (ownsConnection) {
                connection.close();
            }
        } finally {
            if (ownsAllocator) {
                allocator.close();
            }
        }
    }

    /**
     * Why {@code path} was not found, naming what exists: the database's tables, or, when the
     * database is missing too, the databases.
     */
    public RuntimeException notFound(TablePath path, Throwable cause) {
        Admin admin = admin();
        try {
            List<String> tables = admin.listTables(path.getDatabaseName()).get(30, TimeUnit.SECONDS);
            return new TableNotFoundException(path, "Table " + path + " does not exist; tables in database "
                    + path.getDatabaseName() + ": " + tables.stream().sorted().toList(), cause);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof DatabaseNotExistException) {
                return databaseNotFound(path.getDatabaseName(), cause);
            }
            return new TableNotFoundException(path, "Table " + path + " does not exist", cause);
        } catch (Exception e) {
            return new TableNotFoundException(path, "Table " + path + " does not exist", cause);
        }
    }

    /** {@code database} does not exist: the failure, naming the databases that do. */
    public DatabaseNotFoundException databaseNotFound(String database, Throwable cause) {
        return new DatabaseNotFoundException("Database " + database + " does not exist"
                + databases(admin()), cause);
    }

    private static String databases(Admin admin) {
        try {
            return "; databases: " + admin.listDatabases().get(30, TimeUnit.SECONDS).stream().sorted().toList();
        } catch (Exception e) {
            return "";
        }
    }
}
