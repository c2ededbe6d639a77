package dev.riffle.cli.process;

/**
 * Whether this run archives the JVM's classes for the runs after it ({@code bin/riffle}'s first
 * one-shot command after a build runs with {@code -XX:ArchiveClassesAtExit} and
 * {@code -Driffle.class-archive-run=true}). A command that answered through a running gateway
 * then also loads, without side effects, the classes its own path to the cluster needs (the SQL
 * planner, the Fluss client), so that the archive serves both ways of answering.
 */
public final class ClassArchiveRun {
    /** The system property {@code bin/riffle} sets on the archiving run. */
    public static final String PROPERTY = "riffle.class-archive-run";

    private ClassArchiveRun() {}

    public static boolean active() {
        return Boolean.getBoolean(PROPERTY);
    }
}
