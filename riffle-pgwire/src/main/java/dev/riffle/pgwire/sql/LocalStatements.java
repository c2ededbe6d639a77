package dev.riffle.pgwire.sql;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognizes the statements the PostgreSQL layer answers itself ({@link LocalStatement}): the
 * session's commands (SET, SHOW, RESET, BEGIN, COMMIT, ROLLBACK, SAVEPOINT) and COPY; every other statement,
 * queries of the system catalogs included, goes to the SQL engine, which speaks PostgreSQL's
 * dialect there. Also recognizes commands Riffle does not serve (cursors, server-side PREPARE,
 * LISTEN, ...) so that they are refused clearly rather than with a parse error.
 *
 * <pre>{@code
 * LocalStatements.recognize("SHOW TRANSACTION ISOLATION LEVEL")   // ShowParameter[transaction_isolation]
 * LocalStatements.recognize("SELECT 1")                            // empty: the SQL engine answers it
 * }</pre>
 */
public final class LocalStatements {
    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.DOTALL;
    private static final Pattern SET_IGNORED = Pattern.compile(
            "SET\\s+(SESSION\\s+CHARACTERISTICS\\s+AS\\s+)?TRANSACTION\\b.*", FLAGS);
    private static final Pattern SET_TIME_ZONE = Pattern.compile(
            "SET\\s+(?:SESSION\\s+|LOCAL\\s+)?TIME\\s+ZONE\\s+(.+)", FLAGS);
    private static final Pattern SET_ROLE = Pattern.compile(
            "SET\\s+(?:SESSION\\s+|LOCAL\\s+)?ROLE\\s+(.+)", FLAGS);
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
    private static final Pattern SAVEPOINT = Pattern.compile("SAVEPOINT\\s+\\S+", FLAGS);
    private static final Pattern RELEASE = Pattern.compile("RELEASE\\s+(SAVEPOINT\\s+)?\\S+", FLAGS);
    private static final Pattern ROLLBACK_TO = Pattern.compile("ROLLBACK\\s+(WORK\\s+|TRANSACTION\\s+)?TO\\s+"
            + "(SAVEPOINT\\s+)?\\S+", FLAGS);
    private static final Pattern UNSUPPORTED_COMMAND = Pattern.compile(
            "(LISTEN|UNLISTEN|NOTIFY|DECLARE|FETCH|MOVE|CLOSE|PREPARE|EXECUTE|DEALLOCATE|VACUUM|ANALYZE|LOCK"
                    + "|GRANT|REVOKE|CHECKPOINT|CLUSTER|REINDEX|COMMENT|DO|CALL)\\b.*",
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
        m = SET_ROLE.matcher(sql);
        if (m.matches()) {
            return Optional.of(new LocalStatement.SetParameter("role", value(m.group(1))));
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
        if (SAVEPOINT.matcher(sql).matches()) {
            return Optional.of(new LocalStatement.Savepoint(LocalStatement.Savepoint.Action.SAVE));
        }
        if (RELEASE.matcher(sql).matches()) {
            return Optional.of(new LocalStatement.Savepoint(LocalStatement.Savepoint.Action.RELEASE));
        }
        if (ROLLBACK_TO.matcher(sql).matches()) {
            return Optional.of(new LocalStatement.Savepoint(LocalStatement.Savepoint.Action.ROLLBACK_TO));
        }
        if (ROLLBACK.matcher(sql).matches()) {
            return Optional.of(new LocalStatement.End(false));
        }
        if (CopyCommand.isCopy(sql)) {
            return Optional.of(new LocalStatement.Copy(CopyCommand.parse(statement)));
        }
        if (UNSUPPORTED_COMMAND.matcher(sql).matches()) {
            return Optional.of(new LocalStatement.Unsupported(sql.split("\\s+")[0].toUpperCase(Locale.ROOT)));
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
