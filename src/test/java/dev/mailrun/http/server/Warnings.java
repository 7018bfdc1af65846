package dev.mailrun.http.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import ch.qos.logback.core.AppenderBase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.LoggerFactory;

/**
 * What the HTTP server says is wrong while this is open: log events of level WARN or above from
 * Jetty and mailrun, and everything written to stderr (where the JDK's own loggers, and its HTTP
 * server, write their warnings). Other libraries' warnings (a connection pool noticing a loaded
 * machine) are not about the server and are left out.
 *
 * <p>One Jetty warning is left out too: {@code QueuedThreadPool} reporting "already released" from
 * {@code HttpConnection.releaseRequestBuffer}, with no mailrun code on its stack. It is Jetty's own
 * race between a connection closed mid-request and the buffer's release (jetty/jetty.project#12939),
 * which a truncated request can set off; the request itself is answered or closed as it should be.
 */
public final class Warnings implements AutoCloseable {

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final PrintStream originalErr = System.err;
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            String logger = event.getLoggerName();
            if (event.getLevel().isGreaterOrEqual(Level.WARN)
                    && (logger.startsWith("org.eclipse.jetty") || logger.startsWith("dev.mailrun"))
                    && !jettyBufferRace(event.getThrowableProxy())) {
                events.add(event.getLevel() + " " + event.getLoggerName() + " " + event.getFormattedMessage());
            }
        }
    };

    /** Jetty's release race (see above): "already released" from releaseRequestBuffer, no mailrun frame. */
    static boolean jettyBufferRace(IThrowableProxy thrown) {
        IThrowableProxy t = thrown;
        while (t != null && t.getCause() != null && !"java.lang.IllegalStateException".equals(t.getClassName())) {
            t = t.getCause();
        }
        if (t == null || !"java.lang.IllegalStateException".equals(t.getClassName())
                || t.getMessage() == null || !t.getMessage().startsWith("already released")) {
            return false;
        }
        boolean release = false;
        for (StackTraceElementProxy frame : t.getStackTraceElementProxyArray()) {
            StackTraceElement e = frame.getStackTraceElement();
            if (e.getClassName().startsWith("dev.mailrun")) {
                return false;
            }
            release |= e.getClassName().endsWith(".HttpConnection") && e.getMethodName().equals("releaseRequestBuffer");
        }
        return release;
    }

    public Warnings() {
        appender.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        appender.start();
        root.addAppender(appender);
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    }

    /** Log events of WARN and above, then stderr's lines. */
    public List<String> all() {
        List<String> all = new java.util.ArrayList<>(events);
        String err = stderr.toString(StandardCharsets.UTF_8);
        if (!err.isEmpty()) {
            all.add("stderr: " + err);
        }
        return all;
    }

    @Override
    public void close() {
        System.setErr(originalErr);
        root.detachAppender(appender);
        appender.stop();
    }
}
