package net.hydromatic.sqllogictest.executors;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import net.hydromatic.sqllogictest.OptionsParser;

/**
 * The suite's PostgreSQL executor (pgjdbc; the tables to drop between files listed from
 * {@code pg_catalog.pg_tables}, its views from {@code information_schema.views}) pointed at a
 * Riffle PostgreSQL port and one schema of it: the suite's own {@code PostgresExecutor} connects
 * to {@code localhost:5432/slt} only, and would list every Fluss database's tables.
 */
public final class RiffleSltExecutor extends JdbcExecutor {
    public RiffleSltExecutor(OptionsParser.SuppliedOptions options, String url) {
        super(options, url, "riffle", "");
    }

    @Override
    List<String> getTableList() throws SQLException {
        return names("SELECT tablename FROM pg_catalog.pg_tables WHERE schemaname = current_schema()");
    }

    @Override
    List<String> getViewList() throws SQLException {
        return names("SELECT table_name FROM information_schema.views WHERE table_schema = current_schema()");
    }

    private List<String> names(String query) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement statement = getConnection().createStatement(); ResultSet rows = statement.executeQuery(query)) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }
}
