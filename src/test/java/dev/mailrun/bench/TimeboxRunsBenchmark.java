package dev.mailrun.bench;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.model.DomainGroups;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.Sleeper;
import dev.mailrun.scheduler.Worker;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendSettingsFixtures;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The timebox on real time: a worker ticks at aligned slots of a short interval and each run of a
 * campaign's task sends through a proxy that delays every reply line of the sink by a random
 * amount, so batch costs wander. Overrun and utilisation of each run are read back from task_run,
 * as the scheduler recorded them.
 *
 * <p>Arguments: {@code --runs 20 --interval-s 20 --delay-min-ms 0 --delay-max-ms 50 --connections 4
 * --recipients 50000 --driver worker|self --rate 0 --capped-percent 0 --cap 5}: {@code worker} ticks with
 * {@link Worker}, {@code self} ticks from this thread after sleeping until each slot has begun. The safety margin
 * is the default (10% of the interval). {@code --rate} is smtp.rate (0: no limit). With {@code --capped-percent P}
 * every id ending in 00–(P−1) is addressed at gmail.com, a domain group capped at {@code --cap} messages/s, so
 * the runs claim around a capped domain and, once the others are sent, size their batches to the cap.
 */
public final class TimeboxRunsBenchmark {

    private TimeboxRunsBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int runs = args.integer("runs", 20);
        Duration interval = Duration.ofSeconds(args.integer("interval-s", 20));
        int minDelay = args.integer("delay-min-ms", 0);
        int maxDelay = args.integer("delay-max-ms", 50);
        int connections = args.integer("connections", 4);
        int recipients = args.integer("recipients", 50_000);
        boolean ownTicks = args.text("driver", "worker").equals("self");
        double rate = Double.parseDouble(args.text("rate", "0"));
        int cappedPercent = args.integer("capped-percent", 0);
        double cap = Double.parseDouble(args.text("cap", "5"));
        SendSettingsFixtures.Builder builder = SendSettingsFixtures.builder();
        if (cappedPercent > 0) {
            builder.domainGroups(new DomainGroups(List.of(
                    new DomainGroup("gmail", List.of("gmail.com", "googlemail.com"), cap))));
        }
        OneRelaySettings settings = builder.through("bench-relay", rate);
        Clock clock = Clock.systemUTC();
        try (Sink sink = Sink.start(); DelayProxy proxy = new DelayProxy(sink.port(), minDelay, maxDelay, 20261121L);
             BenchDatabase db = BenchDatabase.create("mailrun_bench_timebox", 8);
             PipelineHarness h = new PipelineHarness(db.dataSource(), clock, proxy.port(), connections, interval,
                     settings, SchedulerConfig.defaults("bench-timebox"))) {
            System.out.println(Machine.describe(db.serverVersion(), sink.description()));
            System.out.printf("interval %d s, safety margin %s, reply lines delayed uniformly %d-%d ms, %d connections, "
                    + "%d recipients, real clock, ticks at aligned slots%n%n", interval.toSeconds(),
                    SchedulerConfig.defaults("bench-timebox").safetyMargin().of(interval), minDelay, maxDelay, connections, recipients);
            System.out.printf("smtp.rate %s/s; %s%n%n", rate, cappedPercent > 0
                    ? cappedPercent + "% of the recipients at gmail.com, capped at " + cap + "/s" : "no domain capped");
            DataSource ds = db.dataSource();
            long id = h.newCampaign("timebox runs");
            Recipients.insertPending(ds, id, 0, recipients);
            if (cappedPercent > 0) {
                try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("""
                        UPDATE recipient SET email = CONCAT(SUBSTRING_INDEX(email, '@', 1), '@gmail.com')
                        WHERE campaign_id = ? AND MOD(id, 100) < ?""")) {
                    ps.setLong(1, id);
                    ps.setInt(2, cappedPercent);
                    ps.executeUpdate();
                }
            }
            // Start at a slot boundary so the first run gets (almost) its whole window too.
            Thread.sleep(Math.max(0, Duration.between(clock.instant(), Worker.nextSlot(clock.instant(), interval)).toMillis()));
            if (h.campaigns.start(id) != CampaignStatus.RUNNING) {
                throw new IllegalStateException("campaign did not start");
            }
            String task = "campaign-" + id;
            if (ownTicks) {
                // Tick at each slot, never before it: sleep until the clock has reached the slot.
                Instant slot = clock.instant();
                while (finishedRuns(ds, task) < runs) {
                    h.scheduler.tick();
                    slot = Worker.nextSlot(slot, interval);
                    while (clock.instant().isBefore(slot)) {
                        Thread.sleep(Math.max(1, Duration.between(clock.instant(), slot).toMillis()));
                    }
                }
            } else {
                Worker worker = new Worker(h.scheduler, interval, clock, Sleeper.onClock(clock));
                worker.start();
                while (finishedRuns(ds, task) < runs) {
                    Thread.sleep(1000);
                }
                worker.shutdown(Duration.ofSeconds(30));
            }
            System.out.println("ticks driven by " + (ownTicks ? "this benchmark (sleeping until each slot has begun)"
                    : "dev.mailrun.scheduler.Worker"));
            print(ds, task, runs);
        }
    }

    private static long finishedRuns(DataSource ds, String task) throws Exception {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT COUNT(*) FROM task_run r JOIN task t ON t.id = r.task_id
                WHERE t.name = ? AND r.finished_at IS NOT NULL AND r.items IS NOT NULL""")) {
            ps.setString(1, task);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static long misfires(DataSource ds, String task) throws Exception {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT COUNT(*) FROM task_run r JOIN task t ON t.id = r.task_id WHERE t.name = ? AND r.outcome = 'misfired'""")) {
            ps.setString(1, task);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void print(DataSource ds, String task, int runs) throws Exception {
        System.out.println("| run | outcome | batches | items | utilisation | overrun_ms | finished − deadline (ms) |");
        System.out.println("|---:|---|---:|---:|---:|---:|---:|");
        List<Double> utilisations = new ArrayList<>();
        long overruns = 0;
        long maxOverrun = 0;
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT r.outcome, r.batches, r.items, r.utilisation, r.overrun_ms, r.finished_at, r.deadline
                FROM task_run r JOIN task t ON t.id = r.task_id
                WHERE t.name = ? AND r.finished_at IS NOT NULL AND r.items IS NOT NULL ORDER BY r.id LIMIT ?""")) {
            ps.setString(1, task);
            ps.setInt(2, runs);
            try (ResultSet rs = ps.executeQuery()) {
                int n = 0;
                while (rs.next()) {
                    n++;
                    double utilisation = rs.getDouble(4);
                    long overrun = rs.getLong(5);
                    Instant finished = rs.getObject(6, java.time.LocalDateTime.class).toInstant(java.time.ZoneOffset.UTC);
                    Instant deadline = rs.getObject(7, java.time.LocalDateTime.class).toInstant(java.time.ZoneOffset.UTC);
                    utilisations.add(utilisation);
                    overruns += overrun > 0 ? 1 : 0;
                    maxOverrun = Math.max(maxOverrun, overrun);
                    System.out.printf("| %d | %s | %d | %d | %.2f%% | %d | %d |%n", n, rs.getString(1), rs.getLong(2),
                            rs.getLong(3), 100 * utilisation, overrun, Duration.between(deadline, finished).toMillis());
                }
            }
        }
        double mean = utilisations.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double min = utilisations.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        System.out.printf("%nruns %d, runs with overrun > 0: %d, max overrun %d ms, utilisation mean %.2f%% min %.2f%%, "
                + "misfired slots recorded: %d%n", utilisations.size(), overruns, maxOverrun, 100 * mean, 100 * min,
                misfires(ds, task));
    }
}
