package dev.riffle.core.schema;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.rpc.RetryingAdmin;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableInfo;

/**
 * The schemas a table has had, by schema id, fetched from the cluster the first time an id is
 * met and kept: a schema id never changes meaning. Log batches and KV rows carry the id of the
 * schema they were written with; readers map them to the table's current schema
 * ({@link ColumnMapping}).
 *
 * <pre>{@code
 * TableSchemas schemas = TableSchemas.of(connection, tableInfo);
 * ColumnMapping mapping = schemas.mappingFrom(batchSchemaId);
 * }</pre>
 */
public final class TableSchemas {
    /** The id Fluss gives a table's schema when the table is created. */
    public static final int FIRST_SCHEMA_ID = 1;

    private final FlussConnection connection;
    private final TableInfo table;
    private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();
    private final Map<Integer, ColumnMapping> mappings = new ConcurrentHashMap<>();

    private TableSchemas(FlussConnection connection, TableInfo table) {
        this.connection = requireNonNull(connection, "connection is null");
        this.table = requireNonNull(table, "table is null");
        schemas.put(table.getSchemaId(), table.getSchema());
    }

    /** The schemas of {@code table}, its current one (from the table info) known already. */
    public static TableSchemas of(FlussConnection connection, TableInfo table) {
        return new TableSchemas(connection, table);
    }

    /** Whether the table's schema is the one it was created with (no column added since). */
    public boolean unchanged() {
        return table.getSchemaId() == FIRST_SCHEMA_ID;
    }

    /** The schema with id {@code schemaId}. */
    public Schema schema(int schemaId) {
        Schema known = schemas.get(schemaId);
        if (known != null) {
            return known;
        }
        Schema fetched = fetch(schemaId);
        schemas.put(schemaId, fetched);
        return fetched;
    }

    /** How rows written with schema {@code schemaId} become rows of the table's current schema. */
    public ColumnMapping mappingFrom(int schemaId) {
        ColumnMapping known = mappings.get(schemaId);
        if (known != null) {
            return known;
        }
        ColumnMapping mapping = ColumnMapping.between(schema(schemaId), table.getSchema());
        mappings.put(schemaId, mapping);
        return mapping;
    }

    /**
     * Whether every column at {@code positions} of the current schema existed, at the same
     * position, since the table was created, so that a server projecting each batch by position
     * (as Fluss 0.9 does, with each batch's own schema) returns the same columns for every batch.
     */
    public boolean positionsStable(int[] positions) {
        if (unchanged()) {
            return true;
        }
        ColumnMapping first = mappingFrom(FIRST_SCHEMA_ID);
        for (int position : positions) {
            if (first.sourceIndexes()[position] != position) {
                return false;
            }
        }
        return true;
    }

    private Schema fetch(int schemaId) {
        try {
            return RetryingAdmin.of(connection).getTableSchema(table.getTablePath(), schemaId)
                    .get(30, TimeUnit.SECONDS).getSchema();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while fetching schema " + schemaId + " of "
                    + table.getTablePath(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot fetch schema " + schemaId + " of " + table.getTablePath()
                    + " (rows written with it are being read): " + e.getMessage(), e);
        }
    }
}
