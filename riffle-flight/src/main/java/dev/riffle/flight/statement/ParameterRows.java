package dev.riffle.flight.statement;

import dev.riffle.core.values.ArrowValueReader;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The parameter rows a client binds to a prepared statement (Flight SQL sends them as Arrow
 * batches in a DoPut), as the values JDBC setters take, read through the value layer. At most
 * {@code maxRows} rows are taken, and each row must have one value per {@code ?}.
 */
public final class ParameterRows {
    private ParameterRows() {}

    public static List<List<Object>> read(FlightStream stream, Schema parameters, int maxRows) {
        List<List<Object>> rows = new ArrayList<>();
        ParameterValueSink sink = new ParameterValueSink();
        int expected = parameters.getFields().size();
        while (stream.next()) {
            VectorSchemaRoot root = stream.getRoot();
            if (root.getFieldVectors().size() != expected) {
                throw CallStatus.INVALID_ARGUMENT.withDescription("The parameter batch has "
                        + root.getFieldVectors().size() + " columns, but the statement takes " + expected
                        + " parameters").toRuntimeException();
            }
            if (rows.size() + root.getRowCount() > maxRows) {
                throw CallStatus.INVALID_ARGUMENT.withDescription("More than " + maxRows
                        + " parameter rows in one bind; this server takes at most " + maxRows).toRuntimeException();
            }
            List<ArrowValueReader> readers;
            try {
                readers = ArrowValueReader.ofColumns(root.getFieldVectors());
            } catch (IllegalArgumentException e) {
                throw CallStatus.INVALID_ARGUMENT.withDescription("Unsupported parameter type: " + e.getMessage())
                        .toRuntimeException();
            }
            for (int row = 0; row < root.getRowCount(); row++) {
                List<Object> values = new ArrayList<>(expected);
                for (ArrowValueReader reader : readers) {
                    try {
                        reader.read(row, sink);
                    } catch (IllegalArgumentException e) {
                        throw CallStatus.INVALID_ARGUMENT.withDescription("Parameter '" + reader.name() + "' of row "
                                + row + ": " + e.getMessage()).toRuntimeException();
                    }
                    values.add(sink.take());
                }
                rows.add(values);
            }
        }
        return rows;
    }
}
