package dev.riffle.core;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.config.Configuration;
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
 */
public final class Riffle implements AutoCloseable {
    private final FlussConnection connection;
    private final boolean ownsConnection;
    private final BufferAllocator allocator;
    private final boolean ownsAllocator;

    private Riffle(Connection connection, boolean ownsConnection, BufferAllocator allocator, boolean ownsAllocator) {
        if (!(connection instanceof FlussConnection fluss)) {
            throw new IllegalArgumentException("Riffle needs the Fluss client's own Connection, got "
                    + connection.getClass().getName());
        }
        this.connection = fluss;
        this.ownsConnection = ownsConnection;
        this.allocator = allocator;
        this.ownsAllocator = ownsAllocator;
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
                new RootAllocator(), true);
    }

    /** Uses an existing connection and allocator; closing this Riffle closes neither. */
    public static Riffle using(Connection connection, BufferAllocator allocator) {
        return new Riffle(requireNonNull(connection, "connection is null"), false,
                requireNonNull(allocator, "allocator is null"), false);
    }

    /** A table by {@code database.table}. */
    public RiffleTable table(String qualifiedName) {
        requireNonNull(qualifiedName, "qualifiedName is null");
        int dot = qualifiedName.indexOf('.');
        if (dot <= 0 || dot == qualifiedName.length() - 1 || qualifiedName.indexOf('.', dot + 1) >= 0) {
            throw new IllegalArgumentException("Table name '" + qualifiedName + "' must be DATABASE.TABLE");
        }
        return table(TablePath.of(qualifiedName.substring(0, dot), qualifiedName.substring(dot + 1)));
    }

    /**
     * A table by path; its metadata is read now.
     *
     * @throws IllegalArgumentException when the table does not exist, naming the tables that do
     */
    public RiffleTable table(TablePath path) {
        requireNonNull(path, "path is null");
        try {
            TableInfo info = connection.getOrCreateAdmin().getTableInfo(path).get(60, TimeUnit.SECONDS);
            return new RiffleTable(connection, info, allocator);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while looking up " + path, e);
        } catch (Exception e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof TableNotExistException) {
                throw new IllegalArgumentException("Table " + path + " does not exist" + existingTables(path), cause);
            }
            throw new IllegalStateException("Cannot look up table " + path + ": " + cause.getMessage(), cause);
        }
    }

    public Connection connection() {
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

    private String existingTables(TablePath path) {
        try {
            return "; tables in database " + path.getDatabaseName() + ": "
                    + connection.getOrCreateAdmin().listTables(path.getDatabaseName()).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            return "; database " + path.getDatabaseName() + " may not exist either";
        }
    }
}
