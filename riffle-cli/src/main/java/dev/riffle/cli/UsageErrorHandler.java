package dev.riffle.cli;

import picocli.CommandLine;

/**
 * A wrong command line (unknown flag, missing or malformed value) gets one line naming the problem
 * and where to look, and exit code 2, instead of picocli's full usage dump.
 */
final class UsageErrorHandler implements CommandLine.IParameterExceptionHandler {
    static final int USAGE_ERROR = 2;

    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        String path = command.getCommandSpec().qualifiedName(" ");
        command.getErr().println("riffle: " + e.getMessage() + " (see '" + path + " --help')");
        command.getErr().flush();
        return USAGE_ERROR;
    }
}
