package dev.riffle.flight;

import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.types.ArrowDictionaries;
import dev.riffle.core.types.ArrowFieldFit;
import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.core.types.ArrowWriteLayout;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.FlussValueSink;
import dev.riffle.core.write.Acknowledgements;
import dev.riffle.core.write.TableWrite;
import dev.riffle.server.session.RequestContext;
import dev.riffle.sql.engine.InsertValues;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableExistsOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions.TableNotExistOption;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;

/**
 * Flight SQL bulk ingest ({@code CommandStatementIngest}, what ADBC's bulk ingest sends): an Arrow
 * stream appended to a log table or upserted into a primary-key table, by column name. The
 * table-definition options are answered as the spec says: a missing table is created from the
 * stream's schema (a log table) when asked ({@code CREATE}), else the ingest fails; an existing
 * table is appended to ({@code APPEND}), dropped and created again from the stream's schema
 * ({@code REPLACE}), or the ingest fails ({@code FAIL}).
 *
 * <p>The stream's schema is checked before any row is written (unknown columns, types that do not
 * fit, missing key or NOT NULL columns). Each batch is converted, checked and written before the
 * next is read, so memory holds one batch; a bad value in a later batch fails the ingest after the
 * earlier batches were written, and the error says how many rows were.
 */
final class BulkIngest {
    private static final java.time.Duration METADATA_WAIT = java.time.Duration.ofSeconds(10);

    private BulkIngest() {}

    /** Ingests the stream; returns the rows written. */
    static long run(RequestContext request, CommandStatementIngest command, FlightStream stream) {
        if (command.getTemporary()) {
            throw invalid("Fluss has no temporary tables; ingest into a table");
        }
        if (command.hasTransactionId()) {
            throw invalid("Riffle has no transactions; ingest without a transaction id");
        }
        if (command.hasCatalog() && !command.getCatalog().isEmpty()) {
            throw invalid("Riffle has no catalogs; name the schema (the Fluss database) and the table");
        }
        if (!command.hasSchema() || command.getSchema().isEmpty()) {
            throw invalid("Name the schema (the Fluss database) to ingest into table '" + command.getTable() + "'");
        }
        TablePath path = TablePath.of(command.getSchema(), command.getTable());
        TableNotExistOption ifNotExist = command.getTableDefinitionOptions().getIfNotExist();
        TableExistsOption ifExists = command.getTableDefinitionOptions().getIfExists();
        boolean exists = request.await(request.admin().tableExists(path), "Looking up " + path);
        org.apache.arrow.vector.types.pojo.Schema arrow = new org.apache.arrow.vector.types.pojo.Schema(
                valueFields(stream));
        if (!exists) {
            if (ifNotExist != TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE) {
                throw CallStatus.NOT_FOUND.withDescription("Table " + path + " does not exist; ingest with the"
                        + " create option (ADBC mode create or create_append) to create it").toRuntimeException();
            }
            create(request, path, arrow);
            request.session().sql().tableChanged(path);
        } else if (ifExists == TableExistsOption.TABLE_EXISTS_OPTION_REPLACE) {
            long replaced = request.tableInfo(path).getTableId();
            request.await(request.admin().dropTable(path, false), "Dropping " + path);
            create(request, path, arrow);
            awaitNewTable(request, path, replaced);
            request.session().sql().tableChanged(path);
        } else if (ifExists != TableExistsOption.TABLE_EXISTS_OPTION_APPEND) {
            throw CallStatus.ALREADY_EXISTS.withDescription("Table " + path + " exists; ingest with the append or"
                    + " replace option (ADBC mode append, create_append or replace)").toRuntimeException();
        }
        TableInfo table = request.tableInfo(path);
        checkSchema(table, arrow.getFields());
        int[] positions = new int[arrow.getFields().size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = table.getRowType().getFieldIndex(arrow.getFields().get(i).getName());
        }
        return write(request, table, stream, positions);
    }

    /**
     * The rows of a prepared {@code INSERT INTO t [(columns)] VALUES (?, ...)} bound as Arrow batches
     * (what ADBC's bulk ingest and JDBC batches send): parameter {@code i} is the {@code i}-th listed
     * column (or table column), written straight from the batches, each value converted to its
     * column's type with the same checks as any write.
     */
    static long insert(RequestContext request, InsertValues insert, FlightStream stream) {
        TableInfo table = request.tableInfo(insert.table());
        List<String> columns = insert.columns().orElse(table.getRowType().getFieldNames());
        if (stream.getSchema().getFields().size() != insert.parameters()) {
            throw invalid("The parameter batch has " + stream.getSchema().getFields().size()
                    + " columns, but the statement takes " + insert.parameters() + " parameters");
        }
        int[] positions = new int[columns.size()];
        for (int i = 0; i < positions.length; i++) {
            positions[i] = table.getRowType().getFieldIndex(columns.get(i));
            if (positions[i] < 0) {
                throw invalid("Column '" + columns.get(i) + "' does not exist; columns of " + table.getTablePath()
                        + ": " + table.getRowType().getFieldNames());
            }
        }
        for (int i = 0; i < table.getRowType().getFieldCount(); i++) {
            String column = table.getRowType().getFieldNames().get(i);
            if (needed(table, i) && !columns.contains(column)) {
                throw invalid("The INSERT does not give column '" + column + "', which " + table.getTablePath()
                        + " needs (" + (table.getPrimaryKeys().contains(column) ? "primary key" : "NOT NULL") + ")");
            }
        }
        return write(request, table, stream, positions);
    }

    /**
     * Writes every batch of {@code stream}, vector {@code i} to column {@code positions[i]}; returns
     * the rows. A log table's batches that hold every column in its own Arrow type go to Fluss's
     * writer as they are ({@link ArrowWriteLayout}); others are converted value by value.
     */
    private static long write(RequestContext request, TableInfo table, FlightStream stream, int[] positions) {
        TablePath path = table.getTablePath();
        boolean encoded = ArrowDictionaries.anyEncoded(stream.getSchema().getFields());
        Optional<int[]> layout = table.hasPrimaryKey() ? Optional.empty()
                : ArrowWriteLayout.of(table.getRowType(), valueFields(stream), positions);
        long written = 0;
        while (stream.next()) {
            // Dictionary-encoded columns are written as the values they stand for.
            try (VectorSchemaRoot decoded = encoded
                    ? ArrowDictionaries.decode(stream.getRoot(), stream.getDictionaryProvider(), request.allocator())
                    : null) {
                VectorSchemaRoot batch = encoded ? decoded : stream.getRoot();
                // Each batch is acknowledged before the next is read: one batch of the stream at a time.
                TableWrite write = request.session().handles().write(table).timeout(request.limits().requestTimeout())
                        .open();
                if (layout.isPresent()) {
                    checkRequired(table, batch, layout.get(), written);
                    write.batches(List.of(batch), layout.get());
                } else {
                    write.rows(rows(table, batch, positions, written));
                }
                Acknowledgements acks = write.acknowledgements();
                request.await(acks.all(),
                        "Writing " + acks.count() + " rows to " + path + " (" + written + " written before)");
                written += acks.count();
            }
        }
        return written;
    }

    /** The stream's columns as the values they hold: dictionary-encoded ones as their dictionaries' value types. */
    private static List<Field> valueFields(FlightStream stream) {
        List<Field> sent = stream.getSchema().getFields();
        try {
            return ArrowDictionaries.anyEncoded(sent)
                    ? ArrowDictionaries.decodedFields(sent, stream.getDictionaryProvider()) : sent;
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    /** A null in a column the table needs, in a batch written as it is: the same error as a converted row's. */
    private static void checkRequired(TableInfo table, VectorSchemaRoot batch, int[] layout, long firstRow) {
        for (int column = 0; column < layout.length; column++) {
            if (!needed(table, column)) {
                continue;
            }
            OptionalInt row = ArrowWriteLayout.firstNull(batch.getVector(layout[column]), batch.getRowCount());
            if (row.isPresent()) {
                throw invalid("Row " + (firstRow + row.getAsInt()) + ", column '"
                        + table.getRowType().getFieldNames().get(column) + "': null, but the column is NOT NULL"
                        + (firstRow > 0 ? " (the " + firstRow + " rows of earlier batches were written)"
                                : "; nothing was written"));
            }
        }
    }

    private static boolean needed(TableInfo table, int position) {
        return table.getPrimaryKeys().contains(table.getRowType().getFieldNames().get(position))
                || !table.getRowType().getTypeAt(position).isNullable();
    }

    /**
     * Waits (up to {@link #METADATA_WAIT}) until the cluster's metadata names the new table, not
     * the one it replaced: Fluss's tablet servers learn of a drop and a create a moment after the
     * coordinator, and rows must not be written to, nor a read planned for, the dropped one.
     */
    private static void awaitNewTable(RequestContext request, TablePath path, long replacedId) {
        long deadline = System.nanoTime() + METADATA_WAIT.toNanos();
        while (request.tableInfo(path).getTableId() == replacedId) {
            if (System.nanoTime() > deadline) {
                throw CallStatus.UNAVAILABLE.withDescription("Table " + path + " was created again, but the cluster's"
                        + " metadata still names the dropped table after " + METADATA_WAIT.toSeconds() + " s")
                        .toRuntimeException();
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw CallStatus.CANCELLED.withDescription("Interrupted").toRuntimeException();
            }
        }
    }

    private static void create(RequestContext request, TablePath path,
            org.apache.arrow.vector.types.pojo.Schema arrow) {
        Schema.Builder schema = Schema.newBuilder();
        for (Field field : arrow.getFields()) {
            DataType type;
            try {
                type = ArrowTypeMapping.toFlussType(field);
            } catch (IllegalArgumentException e) {
                throw invalid("Column '" + field.getName() + "' cannot be created: " + e.getMessage());
            }
            schema.column(field.getName(), type);
        }
        TableDescriptor descriptor;
        try {
            descriptor = TableDescriptor.builder().schema(schema.build()).build();
        } catch (RuntimeException e) {
            throw invalid("Table " + path + " cannot be created from the stream's schema: " + e.getMessage());
        }
        request.await(request.admin().createTable(path, descriptor, false), "Creating " + path);
    }

    private static void checkSchema(TableInfo table, List<Field> fields) {
        RowType rowType = table.getRowType();
        Set<String> given = new HashSet<>();
        for (Field field : fields) {
            int index = rowType.getFieldIndex(field.getName());
            if (index < 0) {
                throw invalid("Column '" + field.getName() + "' does not exist; columns of " + table.getTablePath()
                        + ": " + rowType.getFieldNames());
            }
            if (!given.add(field.getName())) {
                throw invalid("The stream has column '" + field.getName() + "' twice");
            }
            ArrowFieldFit.checkFits(field, rowType.getTypeAt(index)).ifPresent(problem -> {
                throw invalid("Column '" + field.getName() + "': " + problem);
            });
        }
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            String column = rowType.getFieldNames().get(i);
            if (needed(table, i) && !given.contains(column)) {
                throw invalid("The stream lacks column '" + column + "', which " + table.getTablePath() + " needs ("
                        + (table.getPrimaryKeys().contains(column) ? "primary key" : "NOT NULL") + ")");
            }
        }
    }

    private static List<GenericRow> rows(TableInfo table, VectorSchemaRoot batch, int[] positions, long firstRow) {
        RowType rowType = table.getRowType();
        List<FieldVector> vectors = batch.getFieldVectors();
        ArrowValueReader[] readers = new ArrowValueReader[vectors.size()];
        FlussValueSink[] sinks = new FlussValueSink[vectors.size()];
        boolean[] required = new boolean[vectors.size()];
        String[] names = new String[vectors.size()];
        for (int v = 0; v < vectors.size(); v++) {
            names[v] = rowType.getFieldNames().get(positions[v]);
            try {
                readers[v] = ArrowValueReader.of(vectors.get(v));
            } catch (IllegalArgumentException e) {
                throw invalid("Column '" + names[v] + "': " + e.getMessage());
            }
            sinks[v] = new FlussValueSink(rowType.getTypeAt(positions[v]));
            required[v] = needed(table, positions[v]);
        }
        List<GenericRow> rows = new ArrayList<>(batch.getRowCount());
        for (int r = 0; r < batch.getRowCount(); r++) {
            GenericRow row = new GenericRow(rowType.getFieldCount());
            for (int v = 0; v < vectors.size(); v++) {
                try {
                    readers[v].read(r, sinks[v]);
                    Object value = sinks[v].take();
                    if (value == null && required[v]) {
                        throw new InvalidValueException("null, but the column is "
                                + (table.getPrimaryKeys().contains(names[v]) ? "part of the primary key" : "NOT NULL"));
                    }
                    row.setField(positions[v], value);
                } catch (InvalidValueException e) {
                    throw invalid("Row " + (firstRow + r) + ", column '" + names[v] + "': " + e.getMessage()
                            + (firstRow > 0 ? " (the " + firstRow + " rows of earlier batches were written)"
                                    : "; nothing was written"));
                }
            }
            rows.add(row);
        }
        return rows;
    }

    private static RuntimeException invalid(String message) {
        return CallStatus.INVALID_ARGUMENT.withDescription(message).toRuntimeException();
    }
}
