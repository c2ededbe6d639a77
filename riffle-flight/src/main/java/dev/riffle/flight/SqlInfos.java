package dev.riffle.flight;

import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlNullOrdering;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedCaseSensitivity;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedTransaction;

/**
 * What Riffle tells Flight SQL clients about itself (GetSqlInfo): its name and version, the Arrow
 * version it speaks, that it reads and writes, runs SQL (Apache Calcite) but no Substrait plans
 * and no transactions, cancels queries, takes bulk ingest, and the SQL facts of its dialect:
 * double-quoted, case-sensitive identifiers (Fluss names keep their case), "schema" for a Fluss
 * database, nulls sorted low as Calcite sorts them.
 */
final class SqlInfos {
    static final String SERVER_NAME = "Riffle";
    static final String ARROW_VERSION = "18.3.0";

    private SqlInfos() {}

    static SqlInfoBuilder builder() {
        String version = SqlInfos.class.getPackage().getImplementationVersion();
        return new SqlInfoBuilder()
                .withFlightSqlServerName(SERVER_NAME)
                .withFlightSqlServerVersion(version == null ? "0.1.0-SNAPSHOT" : version)
                .withFlightSqlServerArrowVersion(ARROW_VERSION)
                .withFlightSqlServerReadOnly(false)
                .withFlightSqlServerSql(true)
                .withFlightSqlServerSubstrait(false)
                .withFlightSqlServerTransaction(SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE)
                .withFlightSqlServerCancel(true)
                .withFlightSqlServerBulkIngestion(true)
                .withFlightSqlServerBulkIngestionTransaction(false)
                .withSqlIdentifierQuoteChar("\"")
                .withSqlIdentifierCase(SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE)
                .withSqlQuotedIdentifierCase(SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE)
                .withSqlSchemaTerm("schema")
                .withSqlCatalogTerm("catalog")
                .withSqlDdlCatalog(false)
                .withSqlDdlSchema(true)
                .withSqlDdlTable(true)
                .withSqlAllTablesAreSelectable(true)
                .withSqlNullOrdering(SqlNullOrdering.SQL_NULLS_SORTED_LOW)
                .withSqlTransactionsSupported(false)
                .withSqlBatchUpdatesSupported(true)
                .withSqlSupportsColumnAliasing(true)
                .withSqlSupportsExpressionsInOrderBy(true)
                .withSqlSupportsNonNullableColumns(true)
                .withSqlCorrelatedSubqueriesSupported(true)
                .withSqlSelectForUpdateSupported(false)
                .withSqlStoredProceduresSupported(false);
    }
}
