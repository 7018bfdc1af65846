package dev.mailrun.campaign.send;

import dev.mailrun.campaign.send.deliver.RouteSender;
import dev.mailrun.campaign.send.record.ResultFlusher;
import dev.mailrun.campaign.send.record.RunSeconds;
import dev.mailrun.campaign.send.scope.Tables;
import java.sql.SQLException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread that writes a run's results. Every 50 ms, and at once when the SMTP workers ask (enough results
 * wait, or marks are needed), it renews the relay shares and re-reads the relays' states if a second
 * has passed, flushes the results if a flush is due, and writes the run's seconds for status
 * ({@link RunSeconds}) once a second. A flush that fails is logged and its results wait for the next one.
 */
final class FlushThread {

    private static final Logger log = LoggerFactory.getLogger(FlushThread.class);
    private static final long PERIOD_MILLIS = 50;

    private final String name;
    private volatile ScheduledExecutorService executor;
    private volatile Runnable pass;
    private volatile Runnable flush;

    FlushThread(long campaignId) {
        this.name = "mailrun-flush-" + campaignId;
    }

    /** Starts the periodic passes; requests made before this do nothing (nothing waits yet). */
    void start(RouteSender route, ResultFlusher flusher, RunSeconds seconds, Tables tables) {
        pass = logged(() -> {
            route.renewIfDue();
            flusher.flushIfDue();
            seconds.writeIfDue(tables);
        });
        flush = logged(flusher::flush);
        ScheduledExecutorService e = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        e.scheduleWithFixedDelay(pass, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        executor = e;
    }

    /** Asks for a pass soon. */
    void request() {
        ScheduledExecutorService e = executor;
        if (e != null && !e.isShutdown()) {
            try {
                e.execute(pass);
            } catch (RejectedExecutionException ignored) {
                // Shutting down: the run's final flush writes what is left.
            }
        }
    }

    /**
     * Flushes now, on this thread, and waits for it: for the run's thread, whose own flush would run
     * beside the passes. A flush that fails is logged, as in a pass; once stopped, does nothing.
     */
    public void flushNow() throws InterruptedException {
        ScheduledExecutorService e = executor;
        if (e == null || e.isShutdown()) {
            return;
        }
        try {
            e.submit(flush).get();
        } catch (RejectedExecutionException | ExecutionException ignored) {
            // Shutting down (the run's final flush writes what is left), or failed and logged.
        }
    }

    /** Work on this thread that writes to the database. */
    @FunctionalInterface
    private interface Step {
        void run() throws SQLException;
    }

    /** A failed step is logged and its results wait for the next flush: the thread goes on. */
    private static Runnable logged(Step step) {
        return () -> {
            try {
                step.run();
            } catch (SQLException | RuntimeException e) {
                log.warn("Flushing send results failed; they are retried at the next flush: {}", e.getMessage());
            }
        };
    }

    /** Stops the passes and waits for one under way (the run's final flush follows). */
    void stop() throws InterruptedException {
        ScheduledExecutorService e = executor;
        if (e != null) {
            e.shutdownNow();
            e.awaitTermination(5, TimeUnit.SECONDS);
        }
    }
}
