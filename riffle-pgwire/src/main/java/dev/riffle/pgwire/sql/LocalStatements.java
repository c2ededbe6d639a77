package dev.riffle.pgwire.sql;

import dev.riffle.pgwire.catalog.CatalogQuery;
import dev.riffle.pgwire.catalog.PgjdbcMetadataQueries;
import dev.riffle.pgwire.catalog.PsqlCatalogQueries;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recognizes the statements the PostgreSQL layer answers itself ({@link LocalStatement}): session
 * statements, COPY, and the catalog queries of psql and pgjdbc it answers from Fluss metadata;
 * every other statement goes to the SQL engine. Also recognizes what Riffle does not serve
 * (cursors, server-side PREPARE, other catalog queries on {@code pg_catalog} and
 * {@code information_schema}, ...) so that it is refused clearly rather than with a parse error.
 *
 * <pre>{@code
 * LocalStatements.recognize("SHOW TRANSACTION ISOLATION LEVEL")   // ShowParameter[transaction_isolation]
 * LocalStatements.recognize("SELECT 1")                            // empty: the SQL engine answers it
 * }</pre>
 */
public final class LocalStatements {
    private static final Logger LOG = LoggerFactory.getLogger(LocalStatements.class);
    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.DOTALL;
    private static final Pattern SET_IGNORED = Pattern.compile(
            "SET\\s+(SESSION\\s+CHARACTERISTICS\\s+AS\\s+)?TRANSACTION\\b.*", FLAGS);
    private static final Pattern SET_TIME_ZONE = Pattern.compile(
            "SET\\s+(?:SESSION\\s+|LOCAL\\s+)?TIME\\s+ZONE\\s+(.+)", FLAGS);
    private static final Pattern SET = Pattern.compile(
            "SET\\s+(?:SESSION\\s+|LOCAL\\s+)?([A-Za-z_][\\w.]*)\\s*(?:=|\\s+TO\\s+)\\s*(.+)", FLAGS);
    private static final Pattern RESET = Pattern.compile("RESET\\s+([A-Za-z_][\\w.]*)", FLAGS);
    private static final Pattern SHOW = Pattern.compile("SHOW\\s+(.+)", FLAGS);
    private static final Pattern BEGIN = Pattern.compile(
            "(BEGIN(\\s+(WORK|TRANSACTION))?|START\\s+TRANSACTION)(\\s+.*)?", FLAGS);
    private static final Pattern COMMIT = Pattern.compile(
            "(COMMIT|END)(\\s+(WORK|TRANSACTION))?(\\s+AND\\s+NO\\s+CHAIN)?", FLAGS);
    private static final Pattern ROLLBACK = Pattern.compile(
            "(ROLLBACK|ABORT)(\\s+(WORK|TRANSACTION))?(\\s+AND\\s+NO\\s+CHAIN)?", FLAGS);
    private static final Pattern FUNCTION = Pattern.compile(
            "SELECT\\s+(?:pg_catalog\\.)?(version|current_schema|current_database|current_catalog|current_user"
                    + "|session_user|user)\\s*(\\(\\s*\\))?(\\s+AS\\s+\"?(\\w+)\"?)?", FLAGS);
    private static final Pattern UNSUPPORTED_COMMAND = Pattern.compile(
            "(LISTEN|UNLISTEN|NOTIFY|DECLARE|FETCH|MOVE|CLOSE|PREPARE|EXECUTE|DEALLOCATE|VACUUM|ANALYZE|LOCK"
                    + "|SAVEPOINT|RELEASE|ROLLBACK\\s+TO|GRANT|REVOKE|CHECKPOINT|CLUSTER|REINDEX|COMMENT|DO|CALL)\\b.*",
            FLAGS);
    private static final Pattern CATALOG = Pattern.compile(
            "\\b(pg_catalog\\s*\\.|information_schema\\s*\\.|pg_(type|class|namespace|attribute|database|settings|proc"
                    + "|roles|user|index|constraint|description|am|tables|views|matviews|extension)\\b|::\\s*regclass"
                    + "|::\\s*regtype)",
            FLAGS);

    private LocalStatements() {}

    /** The statement as the PostgreSQL layer answers it, or empty for the SQL engine. */
    public static Optional<LocalStatement> recognize(String statement) {
        String sql = statement.strip();
        while (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1).strip();
        }
        if (SET_IGNORED.matcher(sql).matches()) {
            return Optional.of(new LocalStatement.SetIgnored());
        }
        Matcher m = SET_TIME_ZONE.matcher(sql);
        if (m.matches()) {
            return Optional.of(new LocalStatement.SetParameter("timezone", value(m.group(1))));
        }
        m = SET.matcher(sql);
        if (m.matches()) {
            return Optional.of(new LocalStatement.SetParameter(m.group(1).toLowerCase(Locale.ROOT), value(m.group(2))));
        }
        if (sql.equalsIgnoreCase("RESET ALL")) {
            return Optional.of(new LocalStatement.ResetParameter(Optional.empty(), "RESET"));
        }
        if (sql.equalsIgnoreCase("DISCARD ALL")) {
            return Optional.of(new LocalStatement.ResetParameter(Optional.empty(), "DISCARD ALL"));
        }
        m = RESET.matcher(sql);
        if (m.matches()) {
            return Optional.of(new LocalStatement.ResetParameter(Optional.of(m.group(1).toLowerCase(Locale.ROOT)),
                    "RESET"));
        }
        m = SHOW.matcher(sql);
        if (m.matches()) {
            String name = m.group(1).strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
            return Optional.of(new LocalStatement.ShowParameter(switch (name) {
                case "transaction isolation level" -> "transaction_isolation";
                case "time zone" -> "timezone";
                default -> name;
            }));
        }
        if (BEGIN.matcher(sql).matches()) {
            return Optional.of(new LocalStatement.Begin());
        }
        if (COMMIT.matcher(sql).matches()) {
            return Optional.of(new LocalStatement.End(true));
        }
        if (ROLLBACK.matcher(sql).matches()) {
            return Optional.of(new LocalStatement.End(false));
        }
        m = FUNCTION.matcher(sql);
        if (m.matches()) {
            String function = m.group(1).toLowerCase(Locale.ROOT);
            boolean parentheses = m.group(2) != null;
            boolean needsParentheses = function.equals("version") || function.equals("current_schema")
                    || function.equals("current_database");
            if (parentheses == needsParentheses || function.equals("current_schema")) {
                return Optional.of(new LocalStatement.SessionFunction(function));
            }
        }
        if (CopyCommand.isCopy(sql)) {
            return Optional.of(new LocalStatement.Copy(CopyCommand.parse(statement)));
        }
        if (UNSUPPORTED_COMMAND.matcher(sql).matches()) {
            return Optional.of(new LocalStatement.Unsupported(sql.split("\\s+")[0].toUpperCase(Locale.ROOT)));
        }
        String query = sql;
        Optional<CatalogQuery> catalog = PsqlCatalogQueries.recognize(query)
                .or(() -> PgjdbcMetadataQueries.recognize(query));
        if (catalog.isPresent()) {
            return Optional.of(new LocalStatement.Catalog(catalog.get()));
        }
        if (CATALOG.matcher(sql).find()) {
            // Logged so that the catalog queries a client sends can be seen (and, one day, answered).
            LOG.debug("Catalog query not answered: {}", sql);
            return Optional.of(new LocalStatement.Unsupported("queries on the PostgreSQL system catalogs"
                    + " (pg_catalog, information_schema)"));
        }
        return Optional.empty();
    }

    /** A setting's value as written: quotes removed, a list kept as written. */
    private static String value(String written) {
        String value = written.strip();
        if (value.length() >= 2 && value.startsWith("'") && value.endsWith("'")) {
            return value.substring(1, value.length() - 1).replace("''", "'");
        }
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }
}
