package dev.riffle.gateway.sql;

import dev.riffle.gateway.http.Render;
import io.javalin.http.Context;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Calendar;
import java.util.function.Function;
import org.apache.arrow.adapter.jdbc.ArrowVectorIterator;
import org.apache.arrow.adapter.jdbc.JdbcFieldInfo;
import org.apache.arrow.adapter.jdbc.JdbcToArrow;
import org.apache.arrow.adapter.jdbc.JdbcToArrowConfig;
import org.apache.arrow.adapter.jdbc.JdbcToArrowConfigBuilder;
import org.apache.arrow.adapter.jdbc.JdbcToArrowUtils;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * SQL results as an Arrow IPC stream, converted by Arrow's JDBC adapter in batches of
 * {@value #BATCH_ROWS} rows that stream out as they fill. Types the adapter does not know (Calcite's
 * {@code OTHER}, and so on) travel as UTF-8 text. Timestamps carry the time zone {@code UTC}.
 */
final class SqlArrow {
    static final int BATCH_ROWS = 4096;

    private SqlArrow() {}

    /** Writes the whole stream; returns the rows written. */
    static long write(Context ctx, ResultSet rows, BufferAllocator allocator) throws IOException, SQLException {
        Calendar utc = JdbcToArrowUtils.getUtcCalendar();
        Function<JdbcFieldInfo, ArrowType> known = field -> JdbcToArrowUtils.getArrowTypeFromJdbcType(field, utc);
        JdbcToArrowConfig config = new JdbcToArrowConfigBuilder(allocator, utc)
                .setTargetBatchSize(BATCH_ROWS)
                .setReuseVectorSchemaRoot(true)
                .setJdbcToArrowTypeConverter(field -> {
                    try {
                        return known.apply(field);
                    } catch (UnsupportedOperationException e) {
                        return ArrowType.Utf8.INSTANCE;
                    }
                })
                .build();
        // Creating the iterator reads the first batch, before the answer begins: a statement that
        // fails on its first rows still gets a proper error status.
        ArrowVectorIterator batches;
        try {
            batches = JdbcToArrow.sqlToArrowVectorIterator(rows, config);
        } catch (RuntimeException e) {
            throw asSqlException(e);
        }
        try (batches) {
            if (!batches.hasNext()) {
                try (VectorSchemaRoot empty = VectorSchemaRoot.create(
                        JdbcToArrowUtils.jdbcToArrowSchema(rows.getMetaData(), config), allocator)) {
                    Render.streamArrow(ctx, empty, writer -> {});
                }
                return 0;
            }
            VectorSchemaRoot root = batches.next(); // the same root, refilled, for every batch
            try (root) {
                long[] count = {0};
                Render.streamArrow(ctx, root, writer -> {
                    writer.writeBatch();
                    count[0] += root.getRowCount();
                    while (batches.hasNext()) {
                        batches.next();
                        if (root.getRowCount() > 0) {
                            writer.writeBatch();
                            count[0] += root.getRowCount();
                        }
                    }
                });
                return count[0];
            }
        }
    }

    /** The adapter wraps the driver's SQLException in a RuntimeException; unwrap it for the error mapping. */
    private static SQLException asSqlException(RuntimeException e) throws SQLException {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return sql;
            }
        }
        throw e;
    }
}
