package dev.mailrun.bench;

import dev.mailrun.app.AppContext;
import dev.mailrun.app.HttpEndpoint;
import dev.mailrun.app.ProductionLinks;
import dev.mailrun.app.Services;
import dev.mailrun.campaign.model.ApiScope;
import dev.mailrun.campaign.model.NewCampaign;
import java.io.BufferedWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The HTTP API against the CLI's path, in one worker process as {@code mailrun worker} wires it:
 *
 * <ul>
 *   <li>recipient upload: a generated CSV file imported by {@code RecipientImporter.importCsv} (what
 *       {@code recipients import} runs) and uploaded to {@code POST /api/v1/campaigns/{id}/recipients/import}
 *       over a socket (streamed to a temporary file, then the same importer), each into its own
 *       campaign, alternated; rows per second from the start of the call to its answer, and the
 *       worker's RSS sampled every 100 ms while the upload runs;</li>
 *   <li>status: {@code GET /api/v1/campaigns/{id}} (the campaign and its full status report) for the
 *       campaign holding the uploaded rows, sequentially, while the worker's scheduler sends that
 *       campaign to the SMTP sink at {@code --send-rate} messages/s; latency percentiles.</li>
 * </ul>
 *
 * <p>Arguments: {@code --rows 1000000 --runs 2 --gets 2000 --send-rate 1000}; {@code --runs 0} measures the
 * status alone (one campaign imported as the CLI does); {@code --send-rate 0} measures it with nothing sending.
 */
public final class ApiBenchmark {

    private ApiBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int rows = args.integer("rows", 1_000_000);
        int runs = args.integer("runs", 2);
        int gets = args.integer("gets", 2_000);
        int sendRate = args.integer("send-rate", 1_000);
        try (BenchDatabase db = BenchDatabase.create("mailrun_bench_api", 8); Sink sink = Sink.start()) {
            System.out.println(Machine.describe(db.serverVersion(), sendRate > 0 ? sink.kind() : "none"));
            Map<String, String> env = new HashMap<>();
            env.put("MAILRUN_DB_URL", BenchDatabase.url(db.name()));
            env.put("MAILRUN_DB_USER", "root");
            env.put("MAILRUN_DB_PASSWORD", "");
            env.put("MAILRUN_ADMIN_PORT", Integer.toString(freePort()));
            env.put("MAILRUN_UNSUBSCRIBE_SECRET", "a-bench-secret-that-is-long-enough-0123456789");
            env.put("MAILRUN_UNSUBSCRIBE_BASE_URL", "https://unsubscribe.bench.example");
            env.put("MAILRUN_API_RATE", "10000");
            env.put("MAILRUN_API_BURST", "100000");
            SendingWorker.configure(env, sink, sendRate, "30s");
            Path csv = Files.createTempFile("mailrun-bench-", ".csv");
            try (BufferedWriter w = Files.newBufferedWriter(csv)) {
                w.write("email,name,company\n");
                for (int i = 0; i < rows; i++) {
                    w.write("reader" + i + "@list" + (i % 97) + ".example,Reader " + i + ",ACME\n");
                }
            }
            try (AppContext ctx = AppContext.load(Optional.empty(), env, Clock.systemUTC());
                 Services s = new Services(ctx, ProductionLinks::of);
                 HttpEndpoint endpoint = HttpEndpoint.start(s, false)) {
                String token = s.apiTokens().create("bench", Set.of(ApiScope.ADMIN));
                String base = "http://127.0.0.1:" + endpoint.adminPort().orElseThrow() + "/api/v1";
                HttpClient http = HttpClient.newHttpClient();
                long pid = ProcessHandle.current().pid();
                System.out.printf("%n%,d rows (%.1f MB) per import; %d runs each, alternated%n%n", rows, Files.size(csv) / 1e6, runs);
                System.out.println("| run | CLI import rows/s | HTTP upload rows/s | HTTP / CLI | RSS before → peak during upload (MiB) |");
                System.out.println("|---:|---:|---:|---:|---|");
                long last = 0;
                for (int run = 1; run <= runs; run++) {
                    long cli = campaign(s, "cli " + run);
                    long t0 = System.nanoTime();
                    s.importer().importCsv(cli, csv, Optional.empty(), n -> { });
                    double cliRate = rows / ((System.nanoTime() - t0) / 1e9);

                    long api = campaign(s, "api " + run);
                    long before = Machine.rssKib(pid);
                    AtomicLong peak = new AtomicLong(before);
                    AtomicBoolean done = new AtomicBoolean();
                    Thread sampler = new Thread(() -> {
                        while (!done.get()) {
                            peak.accumulateAndGet(Machine.rssKib(pid), Math::max);
                            try {
                                Thread.sleep(100);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    });
                    sampler.start();
                    long t1 = System.nanoTime();
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/campaigns/" + api + "/recipients/import"))
                            .header("Authorization", "Bearer " + token).header("Content-Type", "text/csv")
                            .timeout(Duration.ofMinutes(30)).POST(HttpRequest.BodyPublishers.ofFile(csv)).build(),
                            HttpResponse.BodyHandlers.ofString());
                    double apiRate = rows / ((System.nanoTime() - t1) / 1e9);
                    done.set(true);
                    sampler.join();
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException("upload answered " + r.statusCode() + ": " + r.body());
                    }
                    System.out.printf("| %d | %,.0f | %,.0f | %.2f | %.1f → %.1f |%n", run, cliRate, apiRate, apiRate / cliRate,
                            before / 1024.0, peak.get() / 1024.0);
                    last = api;
                }

                if (runs == 0) {
                    // Status alone: one campaign of the given size, imported as the CLI does.
                    last = campaign(s, "status");
                    s.importer().importCsv(last, csv, Optional.empty(), n -> { });
                }
                if (sendRate > 0 && gets > 0) {
                    System.out.printf("%nSending campaign %d to %s at %d/s while the status is read%n", last, sink.description(), sendRate);
                    s.campaigns().start(last);
                    try (SendingWorker worker = SendingWorker.start(s)) {
                        long sentBefore = worker.awaitSent(last, 1_000);
                        statusLatency(http, base, token, last, rows, gets, "sending");
                        System.out.printf("sent during the measurement: %,d → %,d%n", sentBefore, worker.sent(last));
                    }
                } else if (gets > 0) {
                    statusLatency(http, base, token, last, rows, gets, "none sending");
                }
            } finally {
                Files.deleteIfExists(csv);
            }
        }
    }

    private static void statusLatency(HttpClient http, String base, String token, long campaign, int rows, int gets,
                                      String sending) throws Exception {
        HttpRequest status = HttpRequest.newBuilder(URI.create(base + "/campaigns/" + campaign))
                .header("Authorization", "Bearer " + token).build();
        int warm = Math.min(100, Math.max(1, gets / 10));
        for (int i = 0; i < warm; i++) {
            http.send(status, HttpResponse.BodyHandlers.discarding());
        }
        long[] nanos = new long[gets];
        for (int i = 0; i < gets; i++) {
            long t = System.nanoTime();
            HttpResponse<String> r = http.send(status, HttpResponse.BodyHandlers.ofString());
            nanos[i] = System.nanoTime() - t;
            if (r.statusCode() != 200) {
                throw new IllegalStateException("status answered " + r.statusCode());
            }
        }
        Arrays.sort(nanos);
        System.out.printf("%nGET /api/v1/campaigns/{id}, a campaign of %,d recipients (%s), %,d requests one after another"
                + " (after %d to warm up)%n%n", rows, sending, gets, warm);
        System.out.println("| p50 ms | p90 ms | p99 ms | max ms |");
        System.out.println("|---:|---:|---:|---:|");
        System.out.printf("| %.1f | %.1f | %.1f | %.1f |%n", pct(nanos, 0.50), pct(nanos, 0.90), pct(nanos, 0.99),
                nanos[nanos.length - 1] / 1e6);
    }

    private static long campaign(Services s, String name) throws Exception {
        return s.campaigns().create(new NewCampaign(name, "welcome", "news@bench.example", Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty()));
    }

    private static double pct(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
