package dev.riffle.cli;

import picocli.CommandLine;

/**
 * A command that fails prints one line, {@code riffle: <what went wrong>}, and exits with 1. The
 * stack trace goes to the log file only: users should never see one for a problem they can fix.
 */
final class FailureHandler implements CommandLine.IExecutionExceptionHandler {
    static final int FAILURE = 1;

    @Override
    public int handleExecutionException(Exception e, CommandLine command, CommandLine.ParseResult parseResult) {
        command.getErr().println("riffle: " + CliErrors.describe(e));
        command.getErr().flush();
        org.slf4j.LoggerFactory.getLogger(FailureHandler.class).debug("Command failed", e);
        return FAILURE;
    }
}
