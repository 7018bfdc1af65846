package dev.mailrun.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import dev.mailrun.app.config.LogConfig;
import net.logstash.logback.encoder.LogstashEncoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies {@code log.level} and {@code log.format} once the configuration is known. */
final class Logging {

    private Logging() {}

    static void apply(LogConfig config) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return;
        }
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.toLevel(config.level().name(), Level.INFO));
        if (config.format() == LogConfig.Format.JSON) {
            LogstashEncoder encoder = new LogstashEncoder();
            encoder.setContext(context);
            encoder.start();
            ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
            appender.setContext(context);
            appender.setName("JSON");
            appender.setTarget("System.err");
            appender.setEncoder(encoder);
            appender.start();
            root.detachAndStopAllAppenders();
            root.addAppender(appender);
        }
    }
}
