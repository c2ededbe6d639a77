package dev.riffle.cli.read;

/**
 * Which standard streams are terminals. Java 17 cannot tell ({@link System#console()} is null
 * unless stdin <em>and</em> stdout are terminals), but the shell can: {@code bin/riffle} passes
 * {@code -Driffle.stdout.tty} and {@code -Driffle.stderr.tty}. Without them (run from an IDE, or
 * in-process in tests), {@code System.console() != null} stands for both.
 *
 * @param stdout whether standard output is a terminal
 * @param stderr whether standard error is a terminal
 */
public record Terminal(boolean stdout, boolean stderr) {
    public static final String STDOUT_PROPERTY = "riffle.stdout.tty";
    public static final String STDERR_PROPERTY = "riffle.stderr.tty";

    /** The terminals of this process. */
    public static Terminal detect() {
        boolean console = System.console() != null;
        return new Terminal(flag(STDOUT_PROPERTY, console), flag(STDERR_PROPERTY, console));
    }

    private static boolean flag(String property, boolean fallback) {
        String value = System.getProperty(property);
        return value == null ? fallback : Boolean.parseBoolean(value);
    }
}
