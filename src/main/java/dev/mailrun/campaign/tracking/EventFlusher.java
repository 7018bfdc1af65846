package dev.mailrun.campaign.tracking;

import dev.mailrun.campaign.model.TrackingEvent;
import dev.mailrun.campaign.store.TrackingEventTable;
import dev.mailrun.db.Transactions;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the buffered events in batches, off the request threads: every {@link #INTERVAL} (or at
 * once when half a batch waits) the clicks held for a second ({@link ClickHold}) join the buffer,
 * then one multi-row insert per {@link #BATCH} events; at stop every held click is written too; and at most once
 * an hour of its clock deletes the events older than the retention. A failed write logs and drops
 * that batch: counts are worth less than a buffer that grows until the worker stops.
 */
public final class EventFlusher implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EventFlusher.class);
    static final Duration INTERVAL = Duration.ofSeconds(1);
    static final int BATCH = 1000;
    private static final Duration EXPIRY_EVERY = Duration.ofHours(1);

    private final EventBuffer buffer;
    private final ClickHold hold;
    private final DataSource dataSource;
    private final Clock clock;
    private final Duration retention;
    private final TrackingEventTable events = new TrackingEventTable();
    private final Object wake = new Object();
    private Instant lastExpiry = Instant.MIN;   // only the flushing thread
    private volatile boolean stopped;
    private Thread thread;

    EventFlusher(EventBuffer buffer, ClickHold hold, DataSource dataSource, Clock clock, Duration retention) {
        this.buffer = buffer;
        this.hold = hold;
        this.dataSource = dataSource;
        this.clock = clock;
        this.retention = retention;
    }

    /** Starts the background thread. */
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        thread = new Thread(this::loop, "mailrun-tracking-flush");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        while (!stopped) {
            try {
                flush();
            } catch (SQLException | RuntimeException e) {
                log.warn("tracking events could not be written: {}", e.toString());
            }
            synchronized (wake) {
                if (!stopped && buffer.size() < BATCH / 2) {
                    try {
                        wake.wait(INTERVAL.toMillis());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }
    }

    /**
     * Writes everything buffered now, with the held clicks a second old or older, and expires old
     * events when an hour has passed since it last did; returns how many events it wrote. The thread
     * calls it; tests call it in its stead.
     */
    public int flush() throws SQLException {
        return flush(false);
    }

    private int flush(boolean everyClick) throws SQLException {
        hold.release(everyClick);
        int written = 0;
        List<TrackingEvent> batch;
        while (!(batch = buffer.drain(BATCH)).isEmpty()) {
            List<TrackingEvent> rows = batch;
            Transactions.inTransaction(dataSource, c -> {
                events.insert(c, rows);
                return null;
            });
            written += rows.size();
        }
        Instant now = clock.instant();
        if (lastExpiry == Instant.MIN || !now.isBefore(lastExpiry.plus(EXPIRY_EVERY))) {
            lastExpiry = now;
            Instant before = now.minus(retention);
            int deleted;
            do {
                deleted = Transactions.inTransaction(dataSource, c -> events.expire(c, before));
            } while (deleted > 0 && !stopped);
        }
        return written;
    }

    /** Stops the thread after one last flush. */
    @Override
    public void close() {
        stopped = true;
        synchronized (wake) {
            wake.notifyAll();
        }
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            try {
                t.join(Duration.ofSeconds(5).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            flush(true);
        } catch (SQLException | RuntimeException e) {
            log.warn("tracking events could not be written at stop: {}", e.toString());
        }
    }
}
