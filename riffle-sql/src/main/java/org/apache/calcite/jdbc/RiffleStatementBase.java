package org.apache.calcite.jdbc;

import java.sql.SQLException;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.Meta;

/**
 * The one opening Riffle makes into Calcite's JDBC package: Calcite's connection casts every
 * prepared statement to its package-private {@code CalcitePreparedStatement}, so a driver that
 * needs a prepared statement of its own ({@code dev.riffle.sql.jdbc.RifflePreparedStatement}, which
 * keeps the nanoseconds of timestamp parameters) extends it through this class. Nothing else
 * belongs here.
 */
public abstract class RiffleStatementBase extends CalcitePreparedStatement {
    protected RiffleStatementBase(AvaticaConnection connection, Meta.StatementHandle handle, Meta.Signature signature,
            int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        super((CalciteConnectionImpl) connection, handle, signature, resultSetType, resultSetConcurrency,
                resultSetHoldability);
    }
}
