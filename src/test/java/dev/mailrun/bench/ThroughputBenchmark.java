package dev.mailrun.bench;

import dev.mailrun.campaign.attach.AttachmentFiles;
import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendSettingsFixtures;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import javax.sql.DataSource;

/**
 * End-to-end throughput: a campaign drained by the real pipeline (scheduler tick → campaign task:
 * claim → render → SMTP → mark) against the sink with no rate limit, next to the bare mail-library
 * loop at the same connection count, in the same run.
 *
 * <p>Arguments: {@code --recipients 50000 --connections 1,2,4,8 --warmup 50000 --events none|sent
 * --attachment-kb 0}. With {@code --attachment-kb N} every campaign carries an attachment of N KB of
 * random bytes (the bare loop's message does not), for the end-to-end cost of attachments. The warm-up drains
 * that many through the pipeline and sends as many bare: with 5,000 the JIT compiler threads were
 * still compiling the pipeline's code through the first rows and took about a third of its CPU
 * (a worker that runs all day pays that once). The CPU table shows the compile time in each row.
 * The task's tick
 * interval is one day on the real clock, so one run drains the whole campaign (its deadline is the
 * end of the UTC day less the safety margin).
 */
public final class ThroughputBenchmark {

    private static final Duration INTERVAL = Duration.ofDays(1);

    private ThroughputBenchmark() {}

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int recipients = args.integer("recipients", 50_000);
        int warmup = args.integer("warmup", 50_000);
        int[] connections = args.integers("connections", 1, 2, 4, 8);
        // --bare no: pipeline rows only (for profiling the pipeline alone)
        boolean withBare = !"no".equals(args.text("bare", "yes"));
        // --bare-write-timeout no: the bare loop without mail.smtp.writetimeout (no timer per write)
        BareSender.writeTimeout = !"no".equals(args.text("bare-write-timeout", "yes"));
        attachments = attachment(args.integer("attachment-kb", 0));
        // --events sent: the outbox writes recipient.sent and .failed, as with an endpoint taking them
        // (the default, none, is a worker with no endpoint: no event written)
        boolean events = "sent".equals(args.text("events", "none"));
        try (Sink sink = Sink.start(); BenchDatabase db = BenchDatabase.create("mailrun_bench_throughput", 12)) {
            System.out.println(Machine.describe(db.serverVersion(), sink.description()));
            DatabaseThreads ownDb = new DatabaseThreads(db.dataSource(), db.name());
            if (events) {
                dev.mailrun.testing.Subscribed.to(db.dataSource(), java.util.Set.of(dev.mailrun.events.EventType.RECIPIENT_SENT,
                        dev.mailrun.events.EventType.RECIPIENT_FAILED));
            }
            System.out.println(events ? "events: recipient.sent and recipient.failed written with each flush"
                    : "events: none written (no endpoint)");
            System.out.printf("%d recipients per pipeline row, as many messages per bare row; warm-up %d of each at 4 connections%n",
                    recipients, warmup);
            System.out.println(attachments.isEmpty() ? "pipeline messages without attachments"
                    : "pipeline messages carry " + attachments.get(0).summary());
            if (withBare) {
                System.out.println(BareSender.writeTimeout
                        ? "bare loop: mail.smtp.writetimeout set (the mail API's timer thread per connection)"
                        : "bare loop: no write timeout");
            }
            if (warmup > 0) {
                if (withBare) {
                    BareSender.run(sink.port(), 4, warmup, false);
                    BareSender.run(sink.port(), 4, warmup, true);
                }
                pipeline(db.dataSource(), sink.port(), 4, warmup, "warmup", CpuMeter.forServerOf(sink.pid(), db.dataSource()), ownDb);
            }
            System.out.println();
            System.out.println("| connections | bare msg/s | bare, serialised once, msg/s | pipeline msg/s "
                    + "| pipeline / bare | pipeline / bare serialised | runs | batches |");
            System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
            CpuMeter cpu = CpuMeter.forServerOf(sink.pid(), db.dataSource());
            StringBuilder cpuRows = new StringBuilder();
            for (int n : connections) {
                long jit0 = jitMillis();
                CpuMeter.Reading before = cpu.read();
                long bareJit = CpuMeter.compilerTicks();
                double bare = withBare ? BareSender.run(sink.port(), n, recipients, false) : Double.NaN;
                CpuMeter.Reading afterBare = cpu.read();
                bareJit = CpuMeter.compilerTicks() - bareJit;
                long jit1 = jitMillis();
                double bareSerialized = withBare ? BareSender.run(sink.port(), n, recipients, true) : Double.NaN;
                CpuMeter.Reading afterSerialized = cpu.read();
                long jit2 = jitMillis();
                Drain drain = pipeline(db.dataSource(), sink.port(), n, recipients, "c" + n, cpu, ownDb);
                CpuMeter.Reading afterPipeline = cpu.read();
                double ownDbMs = perMessage(ownDb.ticks() - drain.startDb, recipients);
                double jitMs = perMessage(CpuMeter.compilerTicks() - drain.startJit, recipients);
                long jit3 = jitMillis();
                System.out.printf("| %d | %.0f | %.0f | %.0f | %.2f | %.2f | %d | %d |%n", n, bare, bareSerialized,
                        drain.rate, drain.rate / bare, drain.rate / bareSerialized, drain.runs, drain.batches);
                CpuMeter.Usage pipelineCpu = afterPipeline.since(drain.startCpu, recipients);
                if (withBare) {
                    CpuMeter.Usage bareCpu = afterBare.since(before, recipients);
                    cpuRows.append(String.format("| %d | bare | %s | %.3f | | %.1f | |%n", n, bareCpu.cells(),
                            bareCpu.jvm() - perMessage(bareJit, recipients), (jit1 - jit0) / 1e3));
                    cpuRows.append(String.format("| %d | bare, serialised once | %s | | | %.1f | |%n", n,
                            afterSerialized.since(afterBare, recipients).cells(), (jit2 - jit1) / 1e3));
                    cpuRows.append(String.format("| %d | pipeline | %s | %.3f | %.3f | %.1f | %.2f |%n", n, pipelineCpu.cells(),
                            pipelineCpu.jvm() - jitMs, ownDbMs, (jit3 - jit2) / 1e3, bareCpu.machine() / pipelineCpu.machine()));
                } else {
                    cpuRows.append(String.format("| %d | pipeline | %s | %.3f | %.3f | %.1f | |%n", n, pipelineCpu.cells(),
                            pipelineCpu.jvm() - jitMs, ownDbMs, (jit3 - jit2) / 1e3));
                }
            }
            // Why a ratio is what it is: on a saturated machine, messages/s ≈ busy cores / CPU per
            // message, so bare CPU / pipeline CPU per message bounds pipeline / bare.
            System.out.println();
            System.out.println("CPU per message while each row ran (the pipeline's from the first tick on; campaign setup excluded):");
            System.out.println();
            System.out.println("| connections | row | " + CpuMeter.header()
                    + " | JVM less JIT ms/msg | own DB threads ms/msg | JIT compile s | bare machine / pipeline machine |");
            System.out.println("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            System.out.print(cpuRows);
        }
    }

    /** Time the JIT compiler threads have spent compiling in this JVM so far. */
    private static long jitMillis() {
        return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    /** The campaign attachment of every pipeline row (none by default). */
    private static List<Attachment> attachments = List.of();

    private static List<Attachment> attachment(int kb) throws IOException {
        if (kb <= 0) {
            return List.of();
        }
        byte[] bytes = new byte[kb * 1024];
        new Random(42).nextBytes(bytes);
        Path file = Files.createTempFile("mailrun-bench-", ".bin");
        try {
            Files.write(file, bytes);
            return new AttachmentFiles(AttachmentLimits.DEFAULTS).read(List.of(file));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    record Drain(double rate, long sent, long runs, long batches, CpuMeter.Reading startCpu, long startDb, long startJit) {}

    private static double perMessage(long ticks, long messages) {
        return ticks < 0 ? Double.NaN : ticks * CpuMeter.MS_PER_TICK / messages;
    }

    static Drain pipeline(DataSource ds, int port, int connections, int recipients, String name, CpuMeter cpu,
                          DatabaseThreads ownDb) throws Exception {
        OneRelaySettings settings = SendSettingsFixtures.defaults("bench-relay", 0);
        try (PipelineHarness h = new PipelineHarness(ds, Clock.systemUTC(), port, connections, INTERVAL, settings,
                SchedulerConfig.defaults("bench-" + name))) {
            long id = h.newCampaign("throughput " + name, attachments);
            Recipients.insertPending(ds, id, 0, recipients);
            if (h.campaigns.start(id) != CampaignStatus.RUNNING) {
                throw new IllegalStateException("campaign did not start running");
            }
            CpuMeter.Reading startCpu = cpu.read();
            long startDb = ownDb.ticks();
            long startJit = CpuMeter.compilerTicks();
            long start = System.nanoTime();
            int ticks = 0;
            while (h.campaigns.get(id).status() != CampaignStatus.COMPLETED && ticks < 3) {
                h.scheduler.tick();
                ticks++;
            }
            long nanos = System.nanoTime() - start;
            long sent = Recipients.count(ds, id, "sent");
            if (sent != recipients) {
                throw new IllegalStateException("only " + sent + " of " + recipients + " sent after " + ticks + " ticks; "
                        + unsent(ds, id));
            }
            long[] runs = runsAndBatches(ds, id);
            return new Drain(sent / (nanos / 1e9), sent, runs[0], runs[1], startCpu, startDb, startJit);
        }
    }

    /** What became of the recipients not sent, and how each run of the campaign ended: for a benchmark that stopped short. */
    private static String unsent(DataSource ds, long campaignId) throws Exception {
        StringBuilder out = new StringBuilder("not sent:");
        try (Connection c = ds.getConnection()) {
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT status, COUNT(*), MAX(last_error) FROM recipient
                    WHERE campaign_id = ? AND status <> 'sent' GROUP BY 1""")) {
                ps.setLong(1, campaignId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.append(' ').append(rs.getLong(2)).append(' ').append(rs.getString(1))
                                .append(rs.getString(3) == null ? "" : " (last error: " + rs.getString(3) + ")").append(';');
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT r.outcome, r.items, r.summary, r.error FROM task_run r JOIN task t ON t.id = r.task_id
                    WHERE t.name = ? ORDER BY r.id""")) {
                ps.setString(1, "campaign-" + campaignId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.append(" run ").append(rs.getString(1)).append(", ").append(rs.getLong(2)).append(" items: ")
                                .append(rs.getString(3)).append(rs.getString(4) == null ? "" : " error: " + rs.getString(4)).append(';');
                    }
                }
            }
        }
        return out.toString();
    }

    private static long[] runsAndBatches(DataSource ds, long campaignId) throws Exception {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT COUNT(*), COALESCE(SUM(r.batches), 0) FROM task_run r JOIN task t ON t.id = r.task_id
                WHERE t.name = ? AND r.items > 0""")) {
            ps.setString(1, "campaign-" + campaignId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), rs.getLong(2)};
            }
        }
    }
}
