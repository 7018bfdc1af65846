package dev.mailrun.events;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the dispatcher's passes in the worker until {@link #close()}: one every {@code events.poll}
 * while there is nothing to deliver (so events reach their endpoints within seconds of the change,
 * not at the next tick), one after the other while a pass delivers something (a backlog). A pass
 * that fails on the database is logged and the next one tries again: the outbox keeps everything.
 */
public final class DispatcherThread implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DispatcherThread.class);

    private final Dispatcher dispatcher;
    private final Duration poll;
    private final Thread thread;
    private final Object sleep = new Object();
    private volatile boolean running = true;

    private DispatcherThread(Dispatcher dispatcher, Duration poll) {
        this.dispatcher = dispatcher;
        this.poll = poll;
        this.thread = new Thread(this::loop, "mailrun-events");
        thread.setDaemon(true);
    }

    public static DispatcherThread start(Dispatcher dispatcher, Duration poll) {
        DispatcherThread t = new DispatcherThread(dispatcher, poll);
        t.thread.start();
        return t;
    }

    private void loop() {
        String lastError = null;
        while (running) {
            long delivered = 0;
            try {
                delivered = dispatcher.pass();
                if (lastError != null) {
                    log.info("events: the dispatcher reaches the database again");
                    lastError = null;
                }
            } catch (Exception e) {
                if (!e.toString().equals(lastError)) {
                    log.warn("events: a dispatcher pass failed, the next tries again in {}: {}", poll, e.toString());
                    lastError = e.toString();
                }
            }
            if (delivered > 0) {
                continue;   // a backlog: the next pass at once (a pass gives each endpoint a bounded share)
            }
            synchronized (sleep) {
                try {
                    if (running) {
                        sleep.wait(poll.toMillis());
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** Stops after the pass under way (a request is bounded by its endpoint's timeout). */
    @Override
    public void close() {
        // Not an interrupt: a pass under way finishes its request and records its verdict.
        synchronized (sleep) {
            running = false;
            sleep.notifyAll();
        }
        try {
            thread.join(Duration.ofSeconds(65).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
