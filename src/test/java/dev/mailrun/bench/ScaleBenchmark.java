package dev.mailrun.bench;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.ImportSettings;
import dev.mailrun.campaign.importing.RecipientImportReport;
import dev.mailrun.campaign.importing.RecipientImporter;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.InFlightTable;
import dev.mailrun.campaign.store.Outcome;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.campaign.store.recipient.RecipientClaims;
import dev.mailrun.campaign.store.recipient.RecipientResults;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.SendSettingsFixtures;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * How the queue and the worker scale with campaign size. Three parts, each on its own fresh database:
 * <ol>
 *   <li>{@code claims}: time of one claim (the claim's SELECT + mark sending, committed)
 *       and one record (batched UPDATE to sent, committed) of a 500-recipient batch, with 10,000 and
 *       with 1,000,000 pending recipients; after each timed cycle 500 new pending rows are inserted
 *       (untimed) so the pending count stays where it was;</li>
 *   <li>{@code import}: rows per second through the real CSV importer on a generated file;</li>
 *   <li>{@code memory}: a child JVM drains a campaign through the real pipeline while this process
 *       samples its RSS from /proc and the child reports its heap.</li>
 * </ol>
 * Arguments: {@code --part claims|import|memory|all --batch 500 --cycles 50 --import-rows 1000000
 * --drain 10000,200000 --child-opts "-Xmx256m" --connections 4}.
 */
public final class ScaleBenchmark {

    private ScaleBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        String part = args.text("part", "all");
        if (!List.of("claims", "import", "memory", "all").contains(part)) {
            System.err.println("--part must be claims, import, memory or all, was " + part);
            System.exit(2);
        }
        try (Sink sink = Sink.start(); BenchDatabase probe = BenchDatabase.create("mailrun_bench_probe", 1)) {
            System.out.println(Machine.describe(probe.serverVersion(), sink.description()));
            System.out.println();
            if (part.equals("claims") || part.equals("all")) {
                claims(args.integer("batch", 500), args.integer("cycles", 50), args.integers("pending", 10_000, 1_000_000),
                        args.integer("sent-before", 0));
            }
            if (part.equals("import") || part.equals("all")) {
                importRows(args.integer("import-rows", 1_000_000));
            }
            if (part.equals("memory") || part.equals("all")) {
                memory(sink, args.integers("drain", 10_000, 200_000), args.text("child-opts", "-Xmx256m"),
                        args.integer("connections", 4));
            }
        }
    }

    // ---- claims -------------------------------------------------------------------------------

    /**
     * @param sentBefore rows inserted and marked sent before the pending ones (lower ids), as in a
     *                   campaign already part drained; 0 for none
     */
    private static void claims(int batch, int cycles, int[] pendings, int sentBefore) throws Exception {
        System.out.printf("Claim + record of one %d-recipient batch, %d timed cycles after 5 untimed (ms); "
                + "%,d already sent rows below the pending ones%n%n", batch, cycles, sentBefore);
        System.out.println("| pending | insert rows/s | claim median | claim p95 | record median | record p95 | claim+record median | claim+record p95 |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
        List<Double> medians = new ArrayList<>();
        for (int pending : pendings) {
            try (BenchDatabase db = BenchDatabase.create("mailrun_bench_claims", 4)) {
                DataSource ds = db.dataSource();
                long id = campaign(ds, "claims " + pending);
                if (sentBefore > 0) {
                    Recipients.insertPending(ds, id, 0, sentBefore);
                    Recipients.markSent(ds, id);
                }
                long t0 = System.nanoTime();
                Recipients.insertPending(ds, id, sentBefore, pending);
                double insertRate = pending / ((System.nanoTime() - t0) / 1e9);
                Recipients.analyze(ds);
                RecipientClaims claims = new RecipientClaims(new SuppressionTable());
                RecipientResults results = new RecipientResults();
                InFlightTable inFlight = new InFlightTable();
                long nextRow = (long) sentBefore + pending;
                double[] claim = new double[cycles];
                double[] record = new double[cycles];
                double[] total = new double[cycles];
                for (int cycle = -5; cycle < cycles; cycle++) {
                    String token = UUID.randomUUID().toString();
                    Instant now = Instant.now();
                    long a = System.nanoTime();
                    // The claim reads; the run marks its rows in flight (here in the same transaction).
                    RecipientClaims.Claim claimed = Transactions.inTransaction(ds, c -> {
                        RecipientClaims.Claim cl = claims.claim(c, id, now, batch, List.of());
                        inFlight.hold(c, id, token, now);
                        inFlight.write(c, id, token, cl.recipients().stream().map(ClaimedRecipient::id)
                                .collect(Collectors.toCollection(TreeSet::new)), now);
                        return cl;
                    });
                    long b = System.nanoTime();
                    List<Outcome> outcomes = new ArrayList<>(claimed.recipients().size());
                    for (ClaimedRecipient r : claimed.recipients()) {
                        outcomes.add(new Outcome.Sent(r.id(), "<c" + id + ".r" + r.id() + ".0123456789abcdef@sender.example>", now));
                    }
                    int changed = Transactions.inTransaction(ds, c -> results.record(c, id, outcomes, now));
                    long e = System.nanoTime();
                    if (claimed.recipients().size() != batch || changed != batch) {
                        throw new IllegalStateException("claimed " + claimed.recipients().size() + ", recorded " + changed);
                    }
                    if (cycle >= 0) {
                        claim[cycle] = (b - a) / 1e6;
                        record[cycle] = (e - b) / 1e6;
                        total[cycle] = (e - a) / 1e6;
                    }
                    Recipients.insertPending(ds, id, nextRow, batch);
                    nextRow += batch;
                }
                medians.add(percentile(total, 50));
                System.out.printf("| %,d | %,.0f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |%n", pending, insertRate,
                        percentile(claim, 50), percentile(claim, 95), percentile(record, 50), percentile(record, 95),
                        percentile(total, 50), percentile(total, 95));
            }
        }
        if (medians.size() == 2) {
            System.out.printf("%nclaim+record median ratio, largest / smallest: %.2f (target <= 1.2)%n%n",
                    medians.get(1) / medians.get(0));
        }
    }

    // ---- import -------------------------------------------------------------------------------

    private static void importRows(int rows) throws Exception {
        Path csv = Files.createTempFile("mailrun-bench-import", ".csv");
        try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            w.write("email,name,company\r\n");
            for (int i = 0; i < rows; i++) {
                w.write("reader" + i + "@list" + (i % 97) + ".example,Reader " + i + ",ACME " + (i % 13) + "\r\n");
            }
        }
        try (BenchDatabase db = BenchDatabase.create("mailrun_bench_import", 4)) {
            long id = campaign(db.dataSource(), "import");
            RecipientImporter importer = new RecipientImporter(db.dataSource(), new PinnedTemplates(db.dataSource(), Clock.systemUTC()),
                    AddressFilter.none(), Clock.systemUTC(), ImportSettings.defaults());
            long start = System.nanoTime();
            RecipientImportReport report = importer.importCsv(id, csv, Optional.empty(), n -> { });
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("Import of a generated %,d-row CSV (%,d bytes), batch %d%n%n", rows, Files.size(csv),
                    ImportSettings.DEFAULT_BATCH);
            System.out.println("| rows | imported | rejected | seconds | rows/s |");
            System.out.println("|---:|---:|---:|---:|---:|");
            System.out.printf("| %,d | %,d | %,d | %.1f | %,.0f |%n%n", report.rows(), report.imported(), report.rejected(),
                    seconds, report.rows() / seconds);
        } finally {
            Files.deleteIfExists(csv);
        }
    }

    // ---- memory -------------------------------------------------------------------------------

    private static void memory(Sink sink, int[] sizes, String childOpts, int connections) throws Exception {
        System.out.printf("Child JVM draining a campaign through the real pipeline, %d connections, flags: %s%n%n",
                connections, childOpts);
        System.out.println("| recipients | seconds | msg/s | max RSS MiB | RSS at end MiB | max heap used MiB | max heap committed MiB |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
        for (int size : sizes) {
            try (BenchDatabase db = BenchDatabase.create("mailrun_bench_drain", 4)) {
                DataSource ds = db.dataSource();
                long id;
                try (PipelineHarness h = new PipelineHarness(ds, Clock.systemUTC(), sink.port(), connections,
                        Duration.ofDays(1), SendSettingsFixtures.defaults("bench-relay", 0), SchedulerConfig.defaults(SchedulerConfig.thisProcess("unknown-host")))) {
                    id = h.newCampaign("drain " + size);
                    Recipients.insertPending(ds, id, 0, size);
                    if (h.campaigns.start(id) != CampaignStatus.RUNNING) {
                        throw new IllegalStateException("campaign did not start");
                    }
                }
                List<String> command = new ArrayList<>();
                command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
                command.addAll(Arrays.asList(childOpts.trim().split("\\s+")));
                command.add("-Dlogback.configurationFile=bench/logback.xml");
                command.add("-cp");
                command.add(System.getProperty("java.class.path"));
                command.add(DrainWorker.class.getName());
                command.addAll(List.of(db.name(), Long.toString(id), Integer.toString(sink.port()),
                        Integer.toString(connections)));
                Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
                long[] maxRss = {0};
                long[] lastRss = {0};
                Thread rssSampler = new Thread(() -> {
                    while (child.isAlive()) {
                        long rss = Machine.rssKib(child.pid());
                        if (rss > 0) {
                            maxRss[0] = Math.max(maxRss[0], rss);
                            lastRss[0] = rss;
                        }
                        try {
                            Thread.sleep(250);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                rssSampler.start();
                long maxUsed = 0;
                long maxCommitted = 0;
                String done = null;
                try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = out.readLine()) != null) {
                        String[] f = line.split(" ");
                        if (f[0].equals("heap")) {
                            maxUsed = Math.max(maxUsed, Long.parseLong(f[1]));
                            maxCommitted = Math.max(maxCommitted, Long.parseLong(f[2]));
                        } else if (f[0].equals("done")) {
                            done = line;
                        }
                    }
                }
                int exit = child.waitFor();
                rssSampler.join();
                if (exit != 0 || done == null) {
                    throw new IllegalStateException("drain child failed with exit code " + exit);
                }
                String[] d = done.split(" ");
                long sent = Long.parseLong(d[1]);
                double seconds = Double.parseDouble(d[2]);
                System.out.printf("| %,d | %.1f | %.0f | %.1f | %.1f | %.1f | %.1f |%n", sent, seconds, sent / seconds,
                        maxRss[0] / 1024.0, lastRss[0] / 1024.0, maxUsed / 1048576.0, maxCommitted / 1048576.0);
            }
        }
        System.out.println();
    }

    /** A draft campaign of {@code templates/welcome}, created as {@code campaign create} does: its template stored and pinned. */
    static long campaign(DataSource ds, String name) throws Exception {
        Campaigns campaigns = new Campaigns(ds, new TaskStore(ds), new TemplateLoader(Path.of("templates")), Clock.systemUTC(),
                Duration.ofMinutes(5));
        return campaigns.create(new NewCampaign(name, "welcome", "news@sender.example", Optional.of("Sender"), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty()));
    }

    static double percentile(double[] values, int p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, index)];
    }
}
