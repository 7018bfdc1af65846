package dev.mailrun.bench;

import dev.mailrun.app.AppContext;
import dev.mailrun.app.HttpEndpoint;
import dev.mailrun.app.ProductionLinks;
import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.TrackingTokens;
import dev.mailrun.db.SqlTime;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import java.net.ServerSocket;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import javax.sql.DataSource;

/**
 * The click endpoint on the public listener as {@code mailrun worker} wires it, the events going
 * through the real buffer and writer into MariaDB: {@link ClickClients} follow tracked links of
 * distinct recipients ({@code GET /c/<token>}, a person's shape), as fast as the answers come or,
 * with {@code --rate}, paced at that many redirects/s offered; redirects per second and latency
 * percentiles from the clients' side.
 *
 * <ul>
 *   <li>{@code --send-rate 0} (the default): nothing else runs in the process; {@code --recipients}
 *       pending recipients, each link followed after a warm-up of up to 3 s, for {@code --seconds}.</li>
 *   <li>{@code --send-rate N}: the worker's scheduler ({@link SendingWorker}, as {@code mailrun worker}
 *       runs it) sends a tracked campaign of the {@code newsletter} template to the {@link Sink} at
 *       N messages/s (smtp.rate), and {@code --phases} pairs of phases of {@code --seconds} each
 *       alternate, after the first 2 s of sending and a warm-up of the clients of up to 5 s (longer
 *       when the phases are shorter than the scanner window, so that there is something to click): sending
 *       alone, then sending while the clients follow every link of the recipients sent longer than
 *       tracking.scanner-window ago. The campaign's msg/s in each phase counts the
 *       recipients whose {@code sent_at} (the relay's acceptance) falls in it, read once the worker
 *       has stopped and recorded every result; the drop is that of the mean with clicks against the
 *       mean of sending alone. The tick interval is a day, so that one run sends throughout; the
 *       benchmark refuses to start when its phases would reach 00:00 UTC, where that run ends.</li>
 * </ul>
 *
 * <p>Arguments: {@code --recipients 20000 --clients 16 --seconds 20 --rate 0 --send-rate 0 --phases 2};
 * with {@code --send-rate N} the default recipients are enough for every phase at N/s.
 */
public final class TrackingBenchmark {

    private static final String SECRET = "a-bench-secret-that-is-long-enough-0123456789";
    /** Before the phases while sending: the first tick, enough sent to click, the clients' warm-up; and slack. */
    private static final Duration SENDING_SETUP = Duration.ofSeconds(60);

    private TrackingBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int clients = args.integer("clients", 16);
        int seconds = args.integer("seconds", 20);
        int rate = args.integer("rate", 0);
        int sendRate = args.integer("send-rate", 0);
        int phases = args.integer("phases", 2);
        if (seconds < 1 || sendRate < 0 || phases < 1) {
            throw new IllegalArgumentException("--seconds and --phases must be at least 1 and --send-rate at least 0, got "
                    + seconds + ", " + phases + " and " + sendRate);
        }
        Duration length = Duration.ofSeconds(seconds);
        Duration phasesLength = length.multipliedBy(2L * phases);
        int recipients = args.integer("recipients", sendRate > 0
                ? (int) Math.min(Integer.MAX_VALUE, sendRate * (phasesLength.plus(SENDING_SETUP).toSeconds() + 30)) : 20_000);
        if (sendRate > 0) {
            refuseNearMidnight(phasesLength.plus(SENDING_SETUP));
        }
        ClickClients clicks = new ClickClients(clients, rate);
        try (BenchDatabase db = BenchDatabase.create("mailrun_bench_tracking", 8);
             Sink sink = sendRate > 0 ? Sink.start() : null) {
            System.out.println(Machine.describe(db.serverVersion(), sink == null ? "none" : sink.kind()));
            Map<String, String> env = new HashMap<>();
            env.put("MAILRUN_DB_URL", BenchDatabase.url(db.name()));
            env.put("MAILRUN_DB_USER", "root");
            env.put("MAILRUN_DB_PASSWORD", "");
            env.put("MAILRUN_HTTP_PORT", Integer.toString(freePort()));
            env.put("MAILRUN_UNSUBSCRIBE_SECRET", SECRET);
            env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.bench.example");
            env.put("MAILRUN_TRACKING_ENABLED", "true");
            env.put("MAILRUN_TRACKING_BASE_URL", "https://t.bench.example");
            env.put("MAILRUN_TRACKING_BUFFER", "100000");
            if (sink != null) {
                SendingWorker.configure(env, sink, sendRate, "1d");
            }
            try (AppContext ctx = AppContext.load(Optional.empty(), env, Clock.systemUTC());
                 Services s = new Services(ctx, ProductionLinks::of);
                 HttpEndpoint endpoint = HttpEndpoint.start(s, false)) {
                long campaign = s.campaigns().create(new NewCampaign("Bench", "newsletter", "news@sender.example",
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()),
                        Optional.empty(), List.of(), Optional.of(new TrackingMode(true, true)), Optional.empty());
                CampaignFixtures.recipients(db.dataSource(), campaign, recipients);
                String base = "http://127.0.0.1:" + endpoint.port().orElseThrow();
                String pacing = rate > 0 ? String.format("paced at %,d redirects/s offered", rate) : "each as fast as its answers come";
                if (sink == null) {
                    System.out.printf("%n%,d recipients, %d clients %s, %d s%n%n", recipients, clients, pacing, seconds);
                    alone(s, campaign, clicks, base, length);
                } else {
                    System.out.printf("%n%,d recipients sent to %s at %,d/s; %d clients %s; %d × (%d s sending alone, "
                            + "%d s sending with clicks)%n%n", recipients, sink.description(), sendRate, clients, pacing,
                            phases, seconds, seconds);
                    whileSending(s, campaign, clicks, base, length, phases, sendRate, rate);
                }
            }
        }
    }

    /** Clicks with nothing sending: every recipient pending, two links stored as a run stores them. */
    private static void alone(Services s, long campaign, ClickClients clicks, String base, Duration length) throws Exception {
        Transactions.inTransaction(s.dataSource(), c -> {
            new TrackedLinkTable().saveLinks(c, campaign, List.of(URI.create("https://shop.example/a"),
                    URI.create("https://shop.example/b")), Instant.now());
            return null;
        });
        List<String> paths = paths(s.dataSource(), campaign, 2, Optional.empty());
        clicks.run(base, paths, min(length, Duration.ofSeconds(3)));   // warm-up
        ClickClients.Latencies l = clicks.run(base, paths, length);
        int flushed = s.tracker().flusher().flush();
        System.out.println("| redirects/s | p50 ms | p99 ms | max ms | events written after the run |");
        System.out.println("|---:|---:|---:|---:|---:|");
        System.out.printf("| %,.0f | %.2f | %.2f | %.2f | %,d |%n", l.perSecond(), l.percentileMillis(0.5),
                l.percentileMillis(0.99), l.maxMillis(), flushed);
    }

    private record Phase(boolean clicking, Instant from, Instant to, ClickClients.Latencies latencies) {}

    private static void whileSending(Services s, long campaign, ClickClients clicks, String base, Duration length,
                                     int phases, int sendRate, int rate) throws Exception {
        Duration scannerWindow = s.config().tracking().settings().orElseThrow().scannerWindow();
        DataSource ds = s.dataSource();   // once: each call checks the schema
        List<Phase> done = new ArrayList<>();
        if (s.campaigns().start(campaign) != CampaignStatus.RUNNING) {
            throw new IllegalStateException("campaign " + campaign + " did not start running");
        }
        long recipients = CampaignFixtures.recipientCount(ds, campaign);
        long sentAtEnd;
        SendingWorker worker = SendingWorker.start(s);
        try {
            worker.awaitSent(campaign, Math.min(recipients, 2L * sendRate));
            int links = links(ds, campaign);
            // Warm-up: the clients with the sending settled, its connections sized to the rate; with
            // short phases, long enough that the first phase with clicks finds recipients sent longer
            // than the scanner window ago.
            List<String> sentSoFar = paths(ds, campaign, links, Optional.of(Instant.now()));
            Duration warmUp = min(length, Duration.ofSeconds(5));
            clicks.run(base, sentSoFar, scannerWindow.minus(length).compareTo(warmUp) > 0 ? scannerWindow.minus(length) : warmUp);
            for (int p = 0; p < phases; p++) {
                Instant from = Instant.now();
                Thread.sleep(length.toMillis());
                done.add(new Phase(false, from, Instant.now(), null));
                // People click what has arrived: recipients sent longer than the scanner window ago.
                List<String> paths = paths(ds, campaign, links, Optional.of(Instant.now().minus(scannerWindow)));
                from = Instant.now();
                ClickClients.Latencies l = clicks.run(base, paths, length);
                done.add(new Phase(true, from, Instant.now(), l));
            }
            sentAtEnd = worker.sent(campaign);
        } finally {
            worker.close();   // the run checkpoints: every result of the phases is recorded
        }
        if (sentAtEnd >= recipients) {
            throw new IllegalStateException("the campaign ran out of recipients during the phases (" + recipients
                    + " sent): raise --recipients");
        }
        int flushed = s.tracker().flusher().flush();
        System.out.println("| phase | clicks | redirects/s | p50 ms | p99 ms | max ms | campaign msg/s |");
        System.out.println("|---:|---|---:|---:|---:|---:|---:|");
        double[] alone = new double[phases];
        double[] clicking = new double[phases];
        List<long[]> all = new ArrayList<>();
        Duration clickTime = Duration.ZERO;
        for (int i = 0; i < done.size(); i++) {
            Phase ph = done.get(i);
            double msgs = worker.sentBetween(campaign, ph.from(), ph.to())
                    / (Duration.between(ph.from(), ph.to()).toNanos() / 1e9);
            (ph.clicking() ? clicking : alone)[i / 2] = msgs;
            if (ph.clicking()) {
                ClickClients.Latencies l = ph.latencies();
                all.add(l.sorted());
                clickTime = clickTime.plus(l.length());
                System.out.printf("| %d | yes | %,.0f | %.2f | %.2f | %.2f | %,.0f |%n", i + 1, l.perSecond(),
                        l.percentileMillis(0.5), l.percentileMillis(0.99), l.maxMillis(), msgs);
            } else {
                System.out.printf("| %d | no | | | | | %,.0f |%n", i + 1, msgs);
            }
        }
        ClickClients.Latencies pooled = new ClickClients.Latencies(
                all.stream().flatMapToLong(LongStream::of).sorted().toArray(), clickTime);
        double meanAlone = mean(alone);
        double meanClicking = mean(clicking);
        System.out.printf("%nsending alone %,.0f msg/s; with clicks %,.0f msg/s: %.1f%% lower%n", meanAlone, meanClicking,
                100 * (meanAlone - meanClicking) / meanAlone);
        System.out.printf("clicks over all phases: %,.0f redirects/s%s, p50 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                pooled.perSecond(), rate > 0 ? String.format(" of %,d offered", rate) : "", pooled.percentileMillis(0.5),
                pooled.percentileMillis(0.99), pooled.maxMillis());
        System.out.printf("events written after the run: %,d%n", flushed);
    }

    /**
     * Click paths in id order: with nothing sent, one per recipient of the campaign, recipient i on
     * link i mod {@code links}; otherwise every link of every recipient sent before {@code sentBefore},
     * all recipients on the first link, then all on the second, …, so that one message's links are
     * followed a whole pass apart, never as a scanner's burst.
     */
    private static List<String> paths(DataSource ds, long campaign, int links, Optional<Instant> sentBefore) throws Exception {
        TrackingTokens tokens = new TrackingTokens(SigningKey.of(SECRET));
        List<Long> ids = new ArrayList<>();
        String sql = sentBefore.isPresent()
                ? "SELECT id FROM recipient WHERE campaign_id = ? AND status = 'sent' AND sent_at < ? ORDER BY id"
                : "SELECT id FROM recipient WHERE campaign_id = ? ORDER BY id";
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, campaign);
            if (sentBefore.isPresent()) {
                SqlTime.set(ps, 2, sentBefore.get());
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        if (ids.isEmpty()) {
            throw new IllegalStateException("campaign " + campaign + " has no recipient to click for"
                    + sentBefore.map(t -> " (none sent before " + t + ")").orElse(""));
        }
        List<String> paths = new ArrayList<>();
        if (sentBefore.isEmpty()) {
            for (int i = 0; i < ids.size(); i++) {
                paths.add("/c/" + tokens.clickToken(campaign, ids.get(i), i % links));
            }
        } else {
            for (int link = 0; link < links; link++) {
                for (long id : ids) {
                    paths.add("/c/" + tokens.clickToken(campaign, id, link));
                }
            }
        }
        return paths;
    }

    /** How many links the campaign's run stored from its template. */
    private static int links(DataSource ds, long campaign) throws Exception {
        try (Connection c = ds.getConnection()) {
            int n = new TrackedLinkTable().links(c, campaign).size();
            if (n == 0) {
                throw new IllegalStateException("campaign " + campaign + " is sending without tracked links");
            }
            return n;
        }
    }

    /**
     * The worker's one run ends at the next slot of its one-day interval, 00:00 UTC; phases that
     * reached it would measure the gap before the next run.
     */
    private static void refuseNearMidnight(Duration needed) {
        Instant now = Instant.now();
        Instant midnight = LocalDate.ofInstant(now, ZoneOffset.UTC).plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        if (now.plus(needed).plusSeconds(30).isAfter(midnight)) {
            throw new IllegalStateException("the phases (about " + needed.toSeconds() + " s) would reach 00:00 UTC, where the "
                    + "worker's run ends; start after midnight");
        }
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
