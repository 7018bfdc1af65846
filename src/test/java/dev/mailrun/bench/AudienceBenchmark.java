package dev.mailrun.bench;

import dev.mailrun.campaign.audience.ImportMode;
import dev.mailrun.campaign.audience.Lists;
import dev.mailrun.campaign.audience.SubscriberImportReport;
import dev.mailrun.campaign.audience.SubscriberImporter;
import dev.mailrun.campaign.audience.segment.CompiledFilter;
import dev.mailrun.campaign.audience.segment.Segments;
import dev.mailrun.campaign.importing.AddressFilter;
import dev.mailrun.campaign.importing.ImportSettings;
import dev.mailrun.campaign.model.ListOptIn;
import dev.mailrun.campaign.model.ListVisibility;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.campaign.store.audience.SubscriberListTable;
import dev.mailrun.campaign.store.recipient.AudienceRecipients;
import dev.mailrun.db.Transactions;
import java.io.BufferedWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The audience at scale, on one fresh database:
 * <ol>
 *   <li>{@code import}: {@code subscribers import} of a generated CSV (email, name, plan, score,
 *       country) into a list through the real importer ({@link SubscriberImporter}, add mode): rows/s,
 *       and this process's RSS and heap as the rows go in;</li>
 *   <li>{@code count}: segment counts through {@link Segments#countFilter} over those subscribers —
 *       an attribute equal to a text, a numeric range, and an attribute combined with list
 *       membership — the median of several after one untimed;</li>
 *   <li>{@code materialise}: the list's subscribers made a campaign's recipients as a start makes
 *       them (the campaign row locked, {@link AudienceRecipients} in one transaction), and a segment's
 *       (the {@link CompiledFilter} in the {@code INSERT IGNORE … SELECT} its documentation shows),
 *       each into a campaign of its own: seconds.</li>
 * </ol>
 * Arguments: {@code --subscribers 1000000 --counts 5}. Run with {@code BENCH_JAVA_OPTS=-Xmx256m} to
 * see that the import's memory does not grow with the file.
 */
public final class AudienceBenchmark {

    private static final String[] PLANS = {"free", "basic", "pro", "team"};
    private static final String[] COUNTRIES = {"DE", "FR", "US", "GB", "NL", "AT", "CH", "SE", "ES", "IT"};

    private AudienceBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int subscribers = args.integer("subscribers", 1_000_000);
        int counts = args.integer("counts", 5);
        Path csv = Files.createTempFile("mailrun-bench-audience", ".csv");
        try (BenchDatabase db = BenchDatabase.create("mailrun_bench_audience", 4)) {
            System.out.println(Machine.describe(db.serverVersion(), "none"));
            System.out.println("load average at start: " + loadAverage());
            System.out.println();
            write(csv, subscribers);
            DataSource ds = db.dataSource();
            Lists lists = new Lists(ds, Clock.systemUTC());
            SubscriberListTable.Stored list = lists.create(new Lists.NewList("bench", Optional.empty(), ListVisibility.PRIVATE,
                    ListOptIn.SINGLE));
            importRows(ds, csv, list.name());
            analyze(ds);
            count(ds, counts);
            materialise(ds, list.id());
            System.out.println("load average at end: " + loadAverage());
        } finally {
            Files.deleteIfExists(csv);
        }
    }

    private static void write(Path csv, int rows) throws Exception {
        try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
            w.write("email,name,plan,score,country\r\n");
            for (int i = 0; i < rows; i++) {
                w.write("reader" + i + "@list" + (i % 97) + ".example,Reader " + i + "," + PLANS[i % PLANS.length] + ","
                        + (i * 7919L % 1000) + "," + COUNTRIES[i % COUNTRIES.length] + "\r\n");
            }
        }
    }

    // ---- import -------------------------------------------------------------------------------

    private static void importRows(DataSource ds, Path csv, String list) throws Exception {
        SubscriberImporter importer = new SubscriberImporter(ds, Clock.systemUTC(), AddressFilter.none(), ImportSettings.defaults());
        long pid = ProcessHandle.current().pid();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        List<String> samples = new ArrayList<>();
        long[] nextSample = {0};
        long dbBefore = dbTicks(ds);
        double jvmBefore = jvmCpuMs();
        long start = System.nanoTime();
        SubscriberImportReport report = importer.importCsv(list, ImportMode.ADD, csv, Optional.empty(), read -> {
            if (read >= nextSample[0]) {
                samples.add(String.format("| %,d | %.1f | %.1f | %.1f |", read, (System.nanoTime() - start) / 1e9,
                        Machine.rssKib(pid) / 1024.0, memory.getHeapMemoryUsage().getUsed() / 1048576.0));
                nextSample[0] = read + 100_000;
            }
        });
        double seconds = (System.nanoTime() - start) / 1e9;
        double jvmMs = jvmCpuMs() - jvmBefore;
        double dbMs = dbMsSince(ds, dbBefore);
        samples.add(String.format("| %,d | %.1f | %.1f | %.1f |", report.rows(), seconds, Machine.rssKib(pid) / 1024.0,
                memory.getHeapMemoryUsage().getUsed() / 1048576.0));
        System.out.printf("subscribers import of a generated %,d-row CSV (%,d bytes: email, name, 3 attributes) into a list, "
                + "add mode; max heap %.0f MiB%n%n", report.rows(), Files.size(csv), Runtime.getRuntime().maxMemory() / 1048576.0);
        System.out.println("| rows | imported | rejected | seconds | rows/s | worker CPU µs/row | database CPU µs/row | rows/s the CPU allows |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
        System.out.printf("| %,d | %,d | %,d | %.1f | %,.0f | %.1f | %.1f | %,.0f |%n%n", report.rows(), report.imported(),
                report.rejectedByReason().values().stream().mapToLong(Long::longValue).sum(), seconds, report.rows() / seconds,
                jvmMs * 1000 / report.rows(), dbMs * 1000 / report.rows(), report.rows() / ((jvmMs + dbMs) / 1000));
        System.out.println("(rows/s the CPU allows: rows / (worker + database server CPU seconds), the rate of this serial import "
                + "on otherwise idle cores, disk waits left out)");
        System.out.println();
        System.out.println("| rows read | seconds | RSS MiB | heap used MiB |");
        System.out.println("|---:|---:|---:|---:|");
        samples.forEach(System.out::println);
        System.out.println();
    }

    // ---- count --------------------------------------------------------------------------------

    private static void count(DataSource ds, int times) throws Exception {
        Segments segments = new Segments(ds, Clock.systemUTC());
        String[][] filters = {
                {"attribute eq", "{\"attr\": \"plan\", \"eq\": \"pro\"}"},
                {"attribute range", "{\"attr\": \"score\", \"range\": {\"gte\": 100, \"lt\": 200}}"},
                {"attribute eq and list", "{\"and\": [{\"attr\": \"country\", \"eq\": \"DE\"}, {\"list\": \"bench\"}]}"},
                {"attribute in, not", "{\"and\": [{\"attr\": \"country\", \"in\": [\"FR\", \"NL\"]}, "
                        + "{\"not\": {\"attr\": \"plan\", \"eq\": \"free\"}}]}"},
        };
        System.out.printf("Segment counts over the imported subscribers (ms, median of %d after one untimed)%n%n", times);
        System.out.println("| filter | matches | median ms | max ms |");
        System.out.println("|---|---:|---:|---:|");
        for (String[] f : filters) {
            long matches = segments.countFilter(f[1]);
            double[] ms = new double[times];
            for (int i = 0; i < times; i++) {
                long a = System.nanoTime();
                segments.countFilter(f[1]);
                ms[i] = (System.nanoTime() - a) / 1e6;
            }
            System.out.printf("| %s: `%s` | %,d | %.0f | %.0f |%n", f[0], f[1], matches, ScaleBenchmark.percentile(ms, 50),
                    ScaleBenchmark.percentile(ms, 100));
        }
        System.out.println();
    }

    // ---- materialise --------------------------------------------------------------------------

    private static void materialise(DataSource ds, long listId) throws Exception {
        System.out.println("Subscribers made a campaign's recipients at start, one transaction each (seconds)");
        System.out.println();
        System.out.println("| source | recipients | seconds | database CPU s |");
        System.out.println("|---|---:|---:|---:|");
        long listCampaign = ScaleBenchmark.campaign(ds, "to the list");
        Transactions.inTransaction(ds, c -> {
            new CampaignListTable().set(c, listCampaign, List.of(listId));
            return null;
        });
        long dbBefore = dbTicks(ds);
        long a = System.nanoTime();
        long added = Transactions.inTransaction(ds, c -> {
            new CampaignTable().lockExclusive(c, listCampaign);
            return new AudienceRecipients().materialise(c, listCampaign, true, List.of(), Instant.now());
        });
        System.out.printf("| list `bench` (AudienceRecipients) | %,d | %.1f | %.1f |%n", added, (System.nanoTime() - a) / 1e9,
                dbMsSince(ds, dbBefore) / 1000);

        long segmentCampaign = ScaleBenchmark.campaign(ds, "to a segment");
        Segments segments = new Segments(ds, Clock.systemUTC());
        segments.create("everyone on bench", "{\"list\": \"bench\"}");
        long dbBeforeSegment = dbTicks(ds);
        long b = System.nanoTime();
        long segmentAdded = Transactions.inTransaction(ds, c -> {
            new CampaignTable().lockExclusive(c, segmentCampaign);
            CompiledFilter f = segments.compile("everyone on bench");
            // The statement campaign start runs for a segment: its compiled filter, a live subscription, not suppressed.
            return new AudienceRecipients().materialise(c, segmentCampaign, false, List.of(f.where()), Instant.now());
        });
        System.out.printf("| segment `{\"list\": \"bench\"}` (AudienceRecipients, its compiled filter) | %,d | %.1f | %.1f |%n%n",
                segmentAdded, (System.nanoTime() - b) / 1e9, dbMsSince(ds, dbBeforeSegment) / 1000);
    }

    /**
     * CPU ticks so far of the database server process, all its threads: the statements' work and what
     * they leave to the background (flushing, purge). Read on a server the benchmark has to itself.
     * Not the threads of this benchmark's connections: the server hands a new connection a cached
     * thread, whose ticks include earlier clients' work, so a connection the pool opened during a
     * phase counted everything its thread had done before.
     */
    private static long dbTicks(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT TID FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()")) {
            rs.next();
            long pid = CpuMeter.processOfThread(rs.getLong(1)).orElseThrow(() -> new IllegalStateException(
                    "the database server is not a process of this machine: its CPU cannot be read"));
            return CpuMeter.processTicks(pid);
        }
    }

    /** CPU ms of the database server since {@code before}. */
    private static double dbMsSince(DataSource ds, long before) throws Exception {
        return (dbTicks(ds) - before) * CpuMeter.MS_PER_TICK;
    }

    private static double jvmCpuMs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e6;
    }

    private static void analyze(DataSource ds) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("ANALYZE TABLE subscriber, subscription, subscriber_attribute");
        } catch (java.sql.SQLException e) {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.execute("ANALYZE TABLE subscriber, subscription");
            }
        }
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
