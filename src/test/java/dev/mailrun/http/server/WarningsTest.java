package dev.mailrun.http.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.spi.ThrowableProxy;
import org.junit.jupiter.api.Test;

class WarningsTest {

    private static final StackTraceElement RELEASE =
            new StackTraceElement("org.eclipse.jetty.server.internal.HttpConnection", "releaseRequestBuffer", "HttpConnection.java", 1);
    private static final StackTraceElement POOL =
            new StackTraceElement("org.eclipse.jetty.util.thread.QueuedThreadPool$Runner", "run", "QueuedThreadPool.java", 1);
    private static final StackTraceElement OURS =
            new StackTraceElement("dev.mailrun.http.server.Something", "handle", "Something.java", 1);

    @Test
    void jettysReleaseRaceIsRecognised() {
        assertTrue(Warnings.jettyBufferRace(proxy(new IllegalStateException("already released ByteBuffer@1"), RELEASE, POOL)));
        assertTrue(Warnings.jettyBufferRace(proxy(new RuntimeException("wrapped",
                withStack(new IllegalStateException("already released"), RELEASE, POOL)), POOL)));
    }

    @Test
    void everythingElseStillCounts() {
        assertFalse(Warnings.jettyBufferRace(null));
        assertFalse(Warnings.jettyBufferRace(proxy(new IllegalStateException("already released"), OURS, RELEASE)));
        assertFalse(Warnings.jettyBufferRace(proxy(new IllegalStateException("already released"), POOL)));
        assertFalse(Warnings.jettyBufferRace(proxy(new IllegalStateException("closed"), RELEASE)));
        assertFalse(Warnings.jettyBufferRace(proxy(new IllegalArgumentException("already released"), RELEASE)));
    }

    private static ThrowableProxy proxy(Throwable t, StackTraceElement... frames) {
        return new ThrowableProxy(withStack(t, frames));
    }

    private static Throwable withStack(Throwable t, StackTraceElement... frames) {
        t.setStackTrace(frames);
        return t;
    }
}
