package dev.mailrun.bench;

import dev.mailrun.app.Services;
import dev.mailrun.db.SqlTime;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.Sleeper;
import dev.mailrun.scheduler.Worker;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The worker's scheduler with every handler, ticking as {@code mailrun worker} runs it (a tick at
 * start, then one per slot), so that the running campaigns go to the relay the configuration names;
 * stopped, after the running task has checkpointed, on close. With {@link #configure} that relay is
 * the benchmark's {@link Sink}.
 */
final class SendingWorker implements AutoCloseable {

    /** Taken once: each {@link Services#dataSource()} call checks the schema with Flyway. */
    private final DataSource dataSource;
    private final Scheduler scheduler;
    private final Worker worker;

    private SendingWorker(DataSource dataSource, Scheduler scheduler, Worker worker) {
        this.dataSource = dataSource;
        this.scheduler = scheduler;
        this.worker = worker;
    }

    /** The settings that send to {@code sink} at {@code rate} messages/s, ticking every {@code tick}. */
    static void configure(Map<String, String> env, Sink sink, int rate, String tick) {
        env.put("MAILRUN_SMTP_HOST", "127.0.0.1");
        env.put("MAILRUN_SMTP_PORT", Integer.toString(sink.port()));
        env.put("MAILRUN_SMTP_TLS", "none");
        env.put("MAILRUN_SMTP_RATE", Integer.toString(Math.max(1, rate)));
        env.put("MAILRUN_TICK_INTERVAL", tick);
    }

    /** Starts the tick loop on its own thread; its first tick runs at once. */
    static SendingWorker start(Services s) throws SQLException {
        Scheduler scheduler = s.scheduler();
        Worker worker = new Worker(scheduler, s.config().tick().interval(), s.clock(), Sleeper.onClock(s.clock()),
                s.heartbeat());
        worker.start();
        return new SendingWorker(s.dataSource(), scheduler, worker);
    }

    /** Waits until the campaign has at least {@code atLeast} sent recipients; returns how many. */
    long awaitSent(long campaign, long atLeast) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        long sent;
        while ((sent = sent(campaign)) < atLeast) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("campaign " + campaign + " did not send " + atLeast + " within 3 minutes");
            }
            Thread.sleep(500);
        }
        return sent;
    }

    /** The campaign's sent recipients so far (as recorded: results are written a batch at a time). */
    long sent(long campaign) throws SQLException {
        return count("SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND status = 'sent'", campaign, null, null);
    }

    /**
     * The campaign's recipients whose message the relay accepted in [{@code from}, {@code to}), by
     * each one's own {@code sent_at}: exact however the results were batched, once they are recorded.
     */
    long sentBetween(long campaign, Instant from, Instant to) throws SQLException {
        return count("SELECT COUNT(*) FROM recipient WHERE campaign_id = ? AND status = 'sent' AND sent_at >= ? AND sent_at < ?",
                campaign, from, to);
    }

    private long count(String sql, long campaign, Instant from, Instant to) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, campaign);
            if (from != null) {
                SqlTime.set(ps, 2, from);
                SqlTime.set(ps, 3, to);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Override
    public void close() {
        try {
            worker.shutdown(Duration.ofSeconds(30));
        } finally {
            scheduler.close();
        }
    }
}
