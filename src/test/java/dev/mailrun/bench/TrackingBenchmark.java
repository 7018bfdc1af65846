package dev.mailrun.bench;

import dev.mailrun.app.AppContext;
import dev.mailrun.app.HttpEndpoint;
import dev.mailrun.app.ProductionLinks;
import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.store.TrackedLinkTable;
import dev.mailrun.campaign.unsubscribe.SigningKey;
import dev.mailrun.campaign.unsubscribe.TrackingTokens;
import dev.mailrun.db.Transactions;
import dev.mailrun.testing.CampaignFixtures;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The click endpoint on the public listener as {@code mailrun worker} wires it: {@code --clients}
 * threads each follow tracked links of distinct recipients ({@code GET /c/<token>}, a person's
 * shape) for {@code --seconds}; redirects per second and latency percentiles from the clients' side.
 * The events go through the real buffer and writer into MariaDB. Nothing else runs in the process
 * (no campaign sending beside it).
 *
 * <p>Arguments: {@code --recipients 20000 --clients 16 --seconds 20}.
 */
public final class TrackingBenchmark {

    private static final String SECRET = "a-bench-secret-that-is-long-enough-0123456789";

    private TrackingBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int recipients = args.integer("recipients", 20_000);
        int clients = args.integer("clients", 16);
        int seconds = args.integer("seconds", 20);
        try (BenchDatabase db = BenchDatabase.create("mailrun_bench_tracking", 8)) {
            System.out.println(Machine.describe(db.serverVersion(), "none"));
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
            try (AppContext ctx = AppContext.load(Optional.empty(), env, Clock.systemUTC());
                 Services s = new Services(ctx, ProductionLinks::of);
                 HttpEndpoint endpoint = HttpEndpoint.start(s, false)) {
                long campaign = s.campaigns().create(new NewCampaign("Bench", "newsletter", "news@sender.example",
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()),
                        Optional.empty(), List.of(), Optional.of(new TrackingMode(true, true)), Optional.empty());
                CampaignFixtures.recipients(db.dataSource(), campaign, recipients);
                Transactions.inTransaction(db.dataSource(), c -> {
                    new TrackedLinkTable().saveLinks(c, campaign, List.of(URI.create("https://shop.example/a"),
                            URI.create("https://shop.example/b")), java.time.Instant.now());
                    return null;
                });
                List<String> paths = paths(db, campaign);
                String base = "http://127.0.0.1:" + endpoint.port().orElseThrow();
                System.out.printf("%n%,d recipients, %d clients, %d s%n%n", recipients, clients, seconds);
                run(base, paths, clients, Duration.ofSeconds(Math.min(3, seconds)), false);   // warm-up
                long[] nanos = run(base, paths, clients, Duration.ofSeconds(seconds), true);
                int flushed = s.tracker().flusher().flush();
                Arrays.sort(nanos);
                System.out.println("| redirects/s | p50 ms | p99 ms | max ms | events written after the run |");
                System.out.println("|---:|---:|---:|---:|---:|");
                System.out.printf("| %,.0f | %.2f | %.2f | %.2f | %,d |%n", nanos.length / (double) seconds, pct(nanos, 0.5),
                        pct(nanos, 0.99), nanos[nanos.length - 1] / 1e6, flushed);
            }
        }
    }

    private static List<String> paths(BenchDatabase db, long campaign) throws Exception {
        TrackingTokens tokens = new TrackingTokens(SigningKey.of(SECRET));
        List<String> paths = new ArrayList<>();
        try (Connection c = db.dataSource().getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT id FROM recipient WHERE campaign_id = ? ORDER BY id")) {
            ps.setLong(1, campaign);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    paths.add("/c/" + tokens.clickToken(campaign, rs.getLong(1), paths.size() % 2));
                }
            }
        }
        return paths;
    }

    /** Latencies of every request answered 302 within {@code length}; with {@code keep}, returned. */
    private static long[] run(String base, List<String> paths, int clients, Duration length, boolean keep) throws Exception {
        long end = System.nanoTime() + length.toNanos();
        AtomicLong next = new AtomicLong();
        List<long[]> perThread = new ArrayList<>();
        List<int[]> counts = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < clients; t++) {
            long[] lat = new long[2_000_000 / clients];
            int[] n = {0};
            perThread.add(lat);
            counts.add(n);
            Thread thread = new Thread(() -> {
                HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .followRedirects(HttpClient.Redirect.NEVER).build();
                while (System.nanoTime() < end && n[0] < lat.length) {
                    String path = paths.get((int) (next.getAndIncrement() % paths.size()));
                    HttpRequest r = HttpRequest.newBuilder(URI.create(base + path)).header("User-Agent",
                            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36").build();
                    long start = System.nanoTime();
                    try {
                        HttpResponse<Void> resp = http.send(r, HttpResponse.BodyHandlers.discarding());
                        if (resp.statusCode() != 302) {
                            throw new IllegalStateException("answer " + resp.statusCode() + " for " + path);
                        }
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    lat[n[0]++] = System.nanoTime() - start;
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!keep) {
            return new long[0];
        }
        int total = counts.stream().mapToInt(c -> c[0]).sum();
        long[] all = new long[total];
        int at = 0;
        for (int t = 0; t < clients; t++) {
            System.arraycopy(perThread.get(t), 0, all, at, counts.get(t)[0]);
            at += counts.get(t)[0];
        }
        return all;
    }

    private static double pct(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
