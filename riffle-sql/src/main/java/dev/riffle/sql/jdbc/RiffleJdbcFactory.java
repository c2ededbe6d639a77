package dev.riffle.sql.jdbc;

import java.sql.SQLException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalciteJdbc41Factory;

/**
 * Calcite's JDBC objects, with two additions: a prepared statement's handle keeps its signature
 * (as the handle's field documents for prepared statements), so that a server holding the
 * statement can find its direct read ({@code dev.riffle.sql.statement.DirectRead#of}); and prepared
 * statements are {@link RifflePreparedStatement}s, which keep the nanoseconds of timestamp
 * parameters.
 */
public final class RiffleJdbcFactory extends CalciteJdbc41Factory {
    public RiffleJdbcFactory() {
        super();
    }

    @Override
    public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection, Meta.StatementHandle handle,
            Meta.Signature signature, int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        AvaticaPreparedStatement statement = new RifflePreparedStatement(connection, handle, signature, resultSetType,
                resultSetConcurrency, resultSetHoldability);
        if (statement.handle != null && statement.handle.signature == null) {
            statement.handle.signature = signature;
        }
        return statement;
    }
}
