package dev.riffle.cli.option;

import dev.riffle.server.session.ServerLimits;
import dev.riffle.server.statement.RunningStatements;
import dev.riffle.server.statement.StatementAdmission;
import dev.riffle.sql.statement.StatementLimits;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * What one SQL statement may take and how many run at once, shared by {@code riffle local} and
 * {@code riffle serve} (a picocli mixin): {@code --statement-timeout}, {@code --max-statements} and
 * the budgets of what a statement builds. The surfaces of one process (HTTP, Flight SQL,
 * PostgreSQL) share one count of running statements.
 */
public final class StatementOptions {
    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|min|h)");

    @Option(names = "--statement-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How long one SQL statement may run on any surface, from its start to its last row, e.g. "
                    + "30s, 5m (default: 5m); a PostgreSQL session's statement_timeout and a Flight call's deadline "
                    + "may only shorten it.")
    Optional<Duration> statementTimeout = Optional.empty();

    @Option(names = "--max-statements", paramLabel = "N",
            description = "How many SQL statements run at once, all surfaces together (default: the machine's cores, "
                    + "at least 2; half of them for one user); the rest wait. Key lookups never wait.")
    Optional<Integer> maxStatements = Optional.empty();

    @Option(names = "--max-join-rows", paramLabel = "N",
            description = "The most rows the joins of one statement may produce (default: 100000000).")
    Optional<Long> maxJoinRows = Optional.empty();

    @Option(names = "--max-held-rows", paramLabel = "N",
            description = "The most rows one statement may hold to sort, window, join or compare, and the most groups "
                    + "its aggregates may hold (default: one per KiB of the heap, at least 100000).")
    Optional<Long> maxHeldRows = Optional.empty();

    /** Checks the values (picocli has parsed them). */
    public void check(CommandLine commandLine) {
        if (maxStatements.isPresent() && maxStatements.get() < 1) {
            throw new CommandLine.ParameterException(commandLine, "--max-statements must be at least 1, got "
                    + maxStatements.get());
        }
        if (maxJoinRows.isPresent() && maxJoinRows.get() < 1) {
            throw new CommandLine.ParameterException(commandLine, "--max-join-rows must be at least 1, got "
                    + maxJoinRows.get());
        }
        if (maxHeldRows.isPresent() && maxHeldRows.get() < 1) {
            throw new CommandLine.ParameterException(commandLine, "--max-held-rows must be at least 1, got "
                    + maxHeldRows.get());
        }
    }

    /** {@code limits} with the statement timeout and budgets given. */
    public ServerLimits limits(ServerLimits limits) {
        ServerLimits result = statementTimeout.map(limits::withStatementTimeout).orElse(limits);
        StatementLimits statements = result.statements();
        return result.withStatements(statements.withBudgets(maxJoinRows.orElse(statements.maxJoinRows()),
                maxHeldRows.orElse(statements.maxGroups()), maxHeldRows.orElse(statements.maxHeldRows())));
    }

    /** The one registry of running statements for every surface of the process. */
    public RunningStatements statements() {
        StatementAdmission admission = maxStatements.map(StatementAdmission.DEFAULT::withMaxRunning)
                .map(a -> a.withMaxRunningPerPrincipal(Math.max(1, a.maxRunning() / 2)))
                .orElse(StatementAdmission.DEFAULT);
        return new RunningStatements(admission);
    }

    /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Matcher matcher = DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
            if (!matcher.matches() || Long.parseLong(matcher.group(1)) == 0) {
                throw new CommandLine.TypeConversionException("a positive duration such as 500ms, 30s, 5m or 1h, got '"
                        + value + "'");
            }
            long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m", "min" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            };
        }
    }
}
