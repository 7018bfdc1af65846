package dev.mailrun.bench;

import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.DomainGroup;
import dev.mailrun.campaign.model.DomainGroups;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.Sleeper;
import dev.mailrun.scheduler.Worker;
import dev.mailrun.testing.SendSettingsFixtures;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * How much of the relay's allowance a relay-bound campaign uses over many windows: a worker ticks at
 * aligned slots with the production scheduler settings ({@code tick.safety-margin} 15 s as the upper
 * bound of the derived margin, {@code tick.overlap-wait} 5 s), and the campaign sends at a modest
 * {@code smtp.rate} through a proxy that records when each {@code MAIL FROM} reaches the SMTP sink.
 *
 * <p>Figures: messages received over {@code rate × elapsed}, elapsed being the whole span from the
 * first slot to the end of the last window; the most messages in any 1 s at the server; overlapping
 * runs (database clock, from task_run), runs that ended past their deadline, skipped or misfired
 * windows. One line per window: items, the share of the window sent at the allowed rate, the gap
 * before the run, its wait at the slot and its margin.
 *
 * <p>Arguments: {@code --windows 10 --interval-s 300 --rate 100 --connections 4 --max-connections 128 --batch-max 500
 * --rtt-ms 0 --workers 1 --capped-percent 0 --cap 5 --verbose false
 * --db mailrun_bench_allowance --dump FILE --recorder process|in-jvm}; {@code --dump} writes each arrival's time after the first slot
 * (ms), one per line.
 */
public final class AllowanceBenchmark {

    private AllowanceBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int windows = args.integer("windows", 10);
        Duration interval = Duration.ofSeconds(args.integer("interval-s", 300));
        int rate = args.integer("rate", 100);
        int connections = args.integer("connections", 4);
        int maxConnections = args.integer("max-connections", dev.mailrun.mail.smtp.SmtpSettings.DEFAULT_MAX_CONNECTIONS);
        String dbName = args.text("db", "mailrun_bench_allowance");
        int batchMax = args.integer("batch-max", 500);
        String dump = args.text("dump", "");
        String recorder = args.text("recorder", "process");
        int rttMs = args.integer("rtt-ms", 0);
        int workers = args.integer("workers", 1);
        int cappedPercent = args.integer("capped-percent", 0);
        double cap = Double.parseDouble(args.text("cap", "5"));
        verbose = args.text("verbose", "false").equals("true");
        java.nio.file.Path dumpDir = java.nio.file.Files.createTempDirectory("mailrun-sink-");
        long recipients = (long) rate * interval.toSeconds() * (windows + 1);
        Clock clock = Clock.systemUTC();
        SendSettingsFixtures.Builder settings = SendSettingsFixtures.builder().batchMax(batchMax);
        if (cappedPercent > 0) {
            settings.domainGroups(new DomainGroups(List.of(new DomainGroup("gmail", List.of("gmail.com"), cap))));
        }
        List<PipelineHarness> harnesses = new ArrayList<>();
        try (Sink sink = Sink.start(dumpDir); ArrivalRecorder relay = ArrivalRecorder.start(recorder, sink.port(), (int) recipients + 1000);
             LatencyProxy network = new LatencyProxy(relay.port(), rttMs);
             BenchDatabase db = BenchDatabase.create(dbName, 8 * workers)) {
            for (int w = 1; w <= workers; w++) {
                SchedulerConfig config = SchedulerConfig.defaults("bench-allowance-" + w)
                        .withSafetyMargin(SchedulerConfig.SafetyMargin.fixed(Duration.ofSeconds(15)))
                        .withOverlapWait(Duration.ofSeconds(5));
                harnesses.add(new PipelineHarness(db.dataSource(), clock,
                        PipelineHarness.smtp(network.port(), connections).withConnections(connections, maxConnections), interval,
                        settings.through("bench-relay", rate), config));
            }
            System.out.println(Machine.describe(db.serverVersion(), sink.description()));
            System.out.printf(Locale.ROOT, "%d windows of %d s, smtp.rate %d/s, smtp.connections %d, smtp.max-connections %d, "
                            + "send.batch-max %d, %d worker(s) each with a campaign, %s, tick.safety-margin 15s (upper bound), "
                            + "tick.overlap-wait 5s, arrivals: MAIL FROM at a proxy in front of the sink (%s); round trip to the "
                            + "relay %d ms%n%n",
                    windows, interval.toSeconds(), rate, connections, maxConnections, batchMax, workers,
                    cappedPercent > 0 ? cappedPercent + "% of the recipients at gmail.com, capped at " + cap + "/s" : "no domain capped",
                    recorder.equals("process") ? "a process of its own" : "inside the benchmark's JVM", rttMs);
            DataSource ds = db.dataSource();
            List<Long> ids = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                long id = harnesses.get(w).newCampaign("allowance-" + (w + 1));
                Recipients.insertPending(ds, id, w * recipients, recipients / workers);
                if (cappedPercent > 0) {
                    try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("""
                            UPDATE recipient SET email = CONCAT(SUBSTRING_INDEX(email, '@', 1), '@gmail.com')
                            WHERE campaign_id = ? AND MOD(id, 100) < ?""")) {
                        ps.setLong(1, id);
                        ps.setInt(2, cappedPercent);
                        ps.executeUpdate();
                    }
                }
                ids.add(id);
            }
            Instant first = Worker.nextSlot(clock.instant(), interval);
            Thread.sleep(Math.max(0, Duration.between(clock.instant(), first).toMillis()));
            for (int w = 0; w < workers; w++) {
                if (harnesses.get(w).campaigns.start(ids.get(w)) != CampaignStatus.RUNNING) {
                    throw new IllegalStateException("campaign did not start");
                }
            }
            // nanoTime of the first slot, to place the recorder's arrivals on the wall clock.
            long firstNanos = System.nanoTime() - Duration.between(first, clock.instant()).toNanos();
            List<Worker> running = new ArrayList<>();
            for (PipelineHarness h : harnesses) {
                Worker worker = new Worker(h.scheduler, interval, clock, Sleeper.onClock(clock));
                worker.start();
                running.add(worker);
            }
            Instant end = first.plus(interval.multipliedBy(windows));
            while (clock.instant().isBefore(end.plusSeconds(2))) {
                Thread.sleep(500);
            }
            for (Worker worker : running) {
                worker.shutdown(Duration.ofSeconds(30));
            }
            long[] arrivals = relay.takeTimes();
            if (!dump.isEmpty()) {
                // One line per arrival: milliseconds after the first slot, for a closer look at where seconds go unused.
                StringBuilder lines = new StringBuilder();
                for (long t : arrivals) {
                    lines.append(String.format(Locale.ROOT, "%.3f%n", (t - firstNanos) / 1e6));
                }
                java.nio.file.Files.writeString(java.nio.file.Path.of(dump), lines);
            }
            for (long id : ids) {
                report(ds, "campaign-" + id, arrivals, firstNanos, interval, windows, rate);
            }
            gaps(arrivals, firstNanos, interval, windows);
            long seconds = interval.toSeconds() * windows;
            SinkCounts counts = SinkCounts.read(dumpDir, cappedPercent > 0 ? "gmail.com" : "");
            if (counts.isEmpty()) {
                System.out.println("at the sink: no per-second counts (smtp-sink not installed)");
            } else {
                System.out.println(counts.summary("all", first, seconds, interval.toSeconds(), rate, false));
                if (cappedPercent > 0) {
                    // Until the other domains' stream ends: the last second with half the rate the cap leaves them.
                    long others = counts.othersSeconds(first, seconds, (rate - cap) / 2);
                    System.out.printf(Locale.ROOT, "while other domains had recipients (the first %d s): %s%n", others,
                            counts.summary("all", first, others, interval.toSeconds(), rate, false));
                    long capped = counts.domainSeconds(first, seconds);
                    System.out.printf(Locale.ROOT, "gmail.com while it had recipients (the first %d s): %s%n", capped,
                            counts.summary("gmail.com", first, capped, interval.toSeconds(), cap, true));
                }
            }
        } finally {
            for (PipelineHarness h : harnesses) {
                h.close();
            }
            SinkCounts.delete(dumpDir);
        }
    }

    /**
     * At each run boundary (each slot after the first), the time between the last MAIL FROM before
     * the slot and the first after it: how long the relay carried nothing while runs handed over.
     */
    private static void gaps(long[] arrivals, long firstNanos, Duration interval, int windows) {
        long[] sorted = arrivals.clone();
        java.util.Arrays.sort(sorted);
        List<Double> gaps = new ArrayList<>();
        for (int k = 1; k < windows; k++) {
            long slot = firstNanos + interval.toNanos() * k;
            int i = java.util.Arrays.binarySearch(sorted, slot);
            int after = i >= 0 ? i : -i - 1;
            if (after > 0 && after < sorted.length) {
                gaps.add((sorted[after] - sorted[after - 1]) / 1e6);
            }
        }
        if (gaps.isEmpty()) {
            return;
        }
        List<Double> s = gaps.stream().sorted().toList();
        System.out.printf(Locale.ROOT, "gaps at run boundaries (last MAIL FROM before the slot to the first after), %d "
                        + "boundaries: min %.0f ms, median %.0f ms, max %.0f ms%n", s.size(), s.get(0), s.get(s.size() / 2),
                s.get(s.size() - 1));
    }

    private static boolean verbose;

    private static void report(DataSource ds, String task, long[] arrivals, long firstNanos, Duration interval,
                               int windows, int rate) throws Exception {
        long spanNanos = interval.multipliedBy(windows).toNanos();
        long received = 0;
        long[] perWindow = new long[windows];
        List<Long> inSpan = new ArrayList<>();
        for (long t : arrivals) {
            long at = t - firstNanos;
            if (at >= 0 && at < spanNanos) {
                received++;
                perWindow[(int) (at / interval.toNanos())]++;
                inSpan.add(t);
            }
        }
        long[] sorted = inSpan.stream().mapToLong(Long::longValue).toArray();
        int maxInSecond = RateBenchmark.maxInWindow(sorted, 1_000_000_000L);
        // As a relay counting per second of its clock does: the slots are whole seconds, so the
        // seconds after the first slot are the clock's seconds.
        int maxInClockSecond = 0;
        java.util.Map<Long, Integer> perSecond = new java.util.HashMap<>();
        for (long t : sorted) {
            maxInClockSecond = Math.max(maxInClockSecond, perSecond.merge((t - firstNanos) / 1_000_000_000L, 1, Integer::sum));
        }
        busiest(sorted, firstNanos, interval, rate);
        List<Row> rows = rows(ds, task);
        System.out.println("| window | outcome | received | share of rate × window | gap before (ms) | waited (ms) | margin (ms) | finished − deadline (ms) | batches |");
        System.out.println("|---:|---|---:|---:|---:|---:|---:|---:|---:|");
        int overruns = 0;
        int skipped = 0;
        int overlaps = 0;
        int n = 0;
        Row previous = null;
        for (Row r : rows) {
            if (r.deadline == null) {
                skipped++;
                continue;
            }
            if (previous != null && r.started.isBefore(previous.finished)) {
                overlaps++;
            }
            previous = r;
            if (r.overrunMs > 0) {
                overruns++;
            }
            if (n < windows) {
                System.out.printf(Locale.ROOT, "| %d | %s | %d | %.2f%% | %s | %d | %d | %d | %d |%n", n + 1, r.outcome,
                        perWindow[n], 100.0 * perWindow[n] / (rate * interval.toSeconds()),
                        r.gapMs == null ? "-" : r.gapMs.toString(), r.waitedMs, r.marginMs,
                        Duration.between(r.deadline, r.finished).toMillis(), r.batches);
                if (verbose) {
                    System.out.println("    connections: " + r.connections);
                }
            }
            n++;
        }
        double share = received / ((double) rate * interval.toSeconds() * windows);
        System.out.printf(Locale.ROOT, "%nreceived %d of %d (rate × elapsed): %.2f%%; most in any 1 s at the server: %d "
                        + "(sliding), %d (in one second of the clock) (rate %d); overlapping runs: %d; runs past their "
                        + "deadline (overrun_ms > 0): %d; skipped or misfired windows: %d%n", received,
                (long) rate * interval.toSeconds() * windows, 100 * share, maxInSecond, maxInClockSecond, rate, overlaps,
                overruns, skipped);
    }

    /** Where the 1 s windows above the rate begin, as seconds after their slot: at a run boundary or inside a run. */
    private static void busiest(long[] sorted, long firstNanos, Duration interval, int rate) {
        StringBuilder over = new StringBuilder();
        int j = 0;
        long lastReported = 0;
        boolean reported = false;
        for (int i = 0; i < sorted.length; i++) {
            while (j < sorted.length && sorted[j] - sorted[i] < 1_000_000_000L) {
                j++;
            }
            if (j - i > rate && (!reported || sorted[i] - lastReported >= 1_000_000_000L)) {
                long at = sorted[i] - firstNanos;
                over.append(String.format(Locale.ROOT, " %d in [%.3f s, +1 s) of window %d;", j - i,
                        (at % interval.toNanos()) / 1e9, at / interval.toNanos() + 1));
                lastReported = sorted[i];
                reported = true;
            }
        }
        System.out.println("1 s windows above the rate (start, seconds after the slot):"
                + (over.length() == 0 ? " none" : over.toString()));
    }

    private record Row(String outcome, Instant started, Instant finished, Instant deadline, long overrunMs,
                       Long gapMs, long waitedMs, long marginMs, long batches, String connections) {}

    private static List<Row> rows(DataSource ds, String task) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT r.outcome, r.started_at, r.finished_at, r.deadline, r.overrun_ms, r.gap_ms, r.waited_ms, r.margin_ms,
                       r.batches, JSON_EXTRACT(r.summary, '$.connections')
                FROM task_run r JOIN task t ON t.id = r.task_id WHERE t.name = ? ORDER BY r.id""")) {
            ps.setString(1, task);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(rs.getString(1), instant(rs, 2), instant(rs, 3), instant(rs, 4), rs.getLong(5),
                            rs.getObject(6, Long.class), rs.getLong(7), rs.getLong(8), rs.getLong(9),
                            rs.getString(10) == null ? "-" : rs.getString(10)));
                }
            }
        }
        return rows;
    }

    private static Instant instant(ResultSet rs, int column) throws Exception {
        LocalDateTime t = rs.getObject(column, LocalDateTime.class);
        return t == null ? null : t.toInstant(ZoneOffset.UTC);
    }
}
