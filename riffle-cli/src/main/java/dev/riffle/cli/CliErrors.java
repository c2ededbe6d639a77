package dev.riffle.cli;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns an exception into the one line a user reads. */
final class CliErrors {
    private CliErrors() {}

    static String describe(Throwable e) {
        Throwable t = e;
        while ((t instanceof ExecutionException || t instanceof CompletionException
                || t instanceof java.lang.reflect.UndeclaredThrowableException) && t.getCause() != null) {
            t = t.getCause();
        }
        String message = t.getMessage();
        if (message == null || message.isBlank()) {
            return t.getClass().getSimpleName();
        }
        // Keep it to one line: the first line of a multi-line server message.
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
