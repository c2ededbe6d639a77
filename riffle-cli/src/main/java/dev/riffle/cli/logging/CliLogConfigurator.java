package dev.riffle.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.FileAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.nio.file.Path;

/**
 * How the {@code riffle} command logs, set up in code rather than from an XML file (a one-shot
 * command would spend a fifth of its time parsing one): everything, Fluss's and Paimon's logs
 * included, goes to the log file ({@code riffle.log.file}, which {@code riffle local} puts under
 * its data directory; else {@code riffle.log} in the temporary directory); Riffle's own warnings
 * reach the terminal too, on stderr, as {@code riffle: WARN ...}. Stdout carries only what a
 * command prints.
 *
 * <p>It steps aside for an explicit {@code -Dlogback.configurationFile=...}, and for a
 * {@code logback-test.xml} on the class path (tests) unless {@code -Driffle.cli.logging=true} asks
 * for the command's own logging.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class CliLogConfigurator extends ContextAwareBase implements Configurator {
    /** Set to {@code true} to log as the command does even where tests have their own logging. */
    public static final String CLI_LOGGING_PROPERTY = "riffle.cli.logging";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null
                || (!Boolean.getBoolean(CLI_LOGGING_PROPERTY)
                        && CliLogConfigurator.class.getClassLoader().getResource("logback-test.xml") != null)) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        FileAppender<ILoggingEvent> file = new FileAppender<>();
        file.setContext(context);
        file.setName("FILE");
        file.setFile(System.getProperty("riffle.log.file",
                Path.of(System.getProperty("java.io.tmpdir"), "riffle.log").toString()));
        file.setAppend(true);
        file.setEncoder(encoder(context, "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n"));
        file.start();

        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        ThresholdFilter warnings = new ThresholdFilter();
        warnings.setLevel(Level.WARN.levelStr);
        warnings.start();
        stderr.addFilter(warnings);
        stderr.setEncoder(encoder(context, "riffle: %level %msg%n"));
        stderr.start();

        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(file);
        Logger riffle = context.getLogger("dev.riffle");
        riffle.setLevel(Level.INFO);
        riffle.addAppender(stderr);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    private static PatternLayoutEncoder encoder(LoggerContext context, String pattern) {
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(pattern);
        encoder.start();
        return encoder;
    }
}
