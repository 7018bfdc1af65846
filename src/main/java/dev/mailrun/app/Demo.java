package dev.mailrun.app;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.mailrun.app.config.AdminConfig;
import dev.mailrun.app.config.ContentConfig;
import dev.mailrun.app.config.FeedbackConfig;
import dev.mailrun.app.config.MailrunConfig;
import dev.mailrun.app.config.RepliesConfig;
import dev.mailrun.app.config.TickConfig;
import dev.mailrun.app.config.TrackingConfig;
import dev.mailrun.app.config.UnsubscribeConfig;
import dev.mailrun.campaign.importing.RecipientImportReport;
import dev.mailrun.campaign.model.CampaignStatus;
import dev.mailrun.campaign.model.DomainGroups;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.model.RecipientStatus;
import dev.mailrun.campaign.model.RunCounts;
import dev.mailrun.campaign.model.SuppressionReason;
import dev.mailrun.campaign.report.CampaignReport;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.send.policy.DailyCap;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.store.SuppressionTable;
import dev.mailrun.db.Transactions;
import dev.mailrun.events.EventsSettings;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.Sleeper;
import dev.mailrun.scheduler.TaskRun;
import dev.mailrun.scheduler.Worker;
import jakarta.mail.Message;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.BufferedWriter;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The one-command demo: a real campaign through the real code paths — embedded database,
 * scheduler ticks, timeboxed runs, template rendering, an SMTP connection pool and rate limit —
 * against an SMTP server running in this process, then a summary read back from both sides.
 */
public final class Demo {

    /** What the operator can change. */
    public record Options(int size, double rate, Duration interval, int connections) {
        public Options {
            if (size < 10 || size > 1_000_000) {
                throw new IllegalArgumentException("--size must be between 10 and 1000000, got " + size);
            }
            if (!(rate > 0 && rate <= 10_000)) {
                throw new IllegalArgumentException("--rate must be above 0 and at most 10000, got " + rate);
            }
            if (interval.toSeconds() < 3 || interval.toMinutes() > 10) {
                throw new IllegalArgumentException("--interval must be between 3 seconds and 10 minutes, got " + interval);
            }
            if (connections < 1 || connections > 64) {
                throw new IllegalArgumentException("--connections must be between 1 and 64, got " + connections);
            }
        }
    }

    /** The outcome, for the summary and for tests. */
    public record Result(long campaignId, CampaignReport report, RecipientImportReport imported, int suppressedAddresses,
                         int messagesReceived, int addressesReceived, int addressesReceivedTwice, int validMissing,
                         List<TaskRun> runs, boolean overlap, Path rejectsFile) {

        public boolean ok() {
            return addressesReceivedTwice == 0 && validMissing == 0 && !overlap
                    && report.campaign().status() == CampaignStatus.COMPLETED;
        }
    }

    private static final String TEMPLATE = "newsletter";
    private static final String DOMAIN = "demo.mailrun.invalid";

    private final AppContext ctx;
    private final Options options;
    private final Consumer<String> progress;
    private final Consumer<String> notice;

    /**
     * @param progress where progress lines go (a terminal's status line)
     * @param notice   where lines the operator must see go, e.g. the admin listener's URL
     */
    public Demo(AppContext ctx, Options options, Consumer<String> progress, Consumer<String> notice) {
        this.ctx = ctx;
        this.options = options;
        this.progress = progress;
        this.notice = notice;
    }

    public Result run(Path workDir) throws Exception {
        GreenMail smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        smtp.start();
        try {
            try (Services services = new Services(withDemoSettings(ctx, smtp.getSmtp().getPort()), ProductionLinks::of);
                 HttpEndpoint endpoint = HttpEndpoint.start(services, true)) {
                endpoint.adminPort().ifPresent(p -> notice.accept("Watch it run: http://127.0.0.1:" + p + "/status"
                        + "  (also /metrics, /health/ready, /status.json)"));
                return run(services, smtp, workDir);
            }
        } finally {
            smtp.stop();
        }
    }

    private Result run(Services s, GreenMail smtp, Path workDir) throws Exception {
        long id = s.campaigns().create(new NewCampaign("Demo " + Instant.now().toString().substring(0, 19), TEMPLATE,
                "news@" + DOMAIN, Optional.of("mailrun demo"), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty()));
        Path csv = workDir.resolve("demo-recipients.csv");
        List<String> suppressed = writeRecipients(csv);
        progress.accept("importing " + options.size() + " rows");
        Path rejectsFile = workDir.resolve("demo-rejects.csv");
        RecipientImportReport imported = s.importer().importCsv(id, csv, Optional.of(rejectsFile), n -> {});
        Transactions.inTransaction(s.dataSource(), c -> new SuppressionTable().add(c, suppressed.stream()
                .map(a -> new SuppressionTable.Entry(a, SuppressionReason.MANUAL, "demo")).toList(), s.clock().instant()));
        s.campaigns().start(id);

        MailboxTasks.register(s);
        try (Scheduler scheduler = s.scheduler(); RelayConfigBeacon relayConfigs = s.relayConfigBeacon()) {
            Worker worker = new Worker(scheduler, options.interval(), s.clock(), Sleeper.onClock(s.clock()), s.heartbeat());
            Thread thread = worker.start();
            try {
                CampaignReport report = s.reports().report(id);
                while (!report.campaign().status().isFinal() && report.campaign().status() != CampaignStatus.PAUSED) {
                    Thread.sleep(500);
                    report = s.reports().report(id);
                    long done = report.total() - report.remaining();
                    progress.accept(String.format("%d/%d done, %d sent, %d runs so far", done, report.total(),
                            report.counts().get(RecipientStatus.SENT), report.runs().size()));
                }
            } finally {
                worker.shutdown(Duration.ofSeconds(30));
                thread.join(35_000);
            }
        }
        return summarise(s, smtp, id, imported, suppressed.size(), rejectsFile);
    }

    private Result summarise(Services s, GreenMail smtp, long id, RecipientImportReport imported, int suppressedCount,
                           Path rejectsFile) throws Exception {
        CampaignReport report = s.reports().report(id);
        Map<String, Integer> received = new HashMap<>();
        MimeMessage[] messages = smtp.getReceivedMessages();
        for (MimeMessage m : messages) {
            for (var to : m.getRecipients(Message.RecipientType.TO)) {
                received.merge(((InternetAddress) to).getAddress(), 1, Integer::sum);
            }
        }
        int twice = (int) received.values().stream().filter(n -> n > 1).count();
        long sent = report.counts().get(RecipientStatus.SENT);
        int missing = (int) Math.max(0, sent - received.size());
        List<TaskRun> runs = new ArrayList<>(s.tasks().recentRuns(SendTask.taskName(id), 1000));
        // Only rows of runs that actually held the task; misfire and skipped-overlap rows record decisions.
        runs.removeIf(r -> r.finishedAt().isEmpty() || r.runToken().isEmpty()
                || List.of("skipped_overlap", "misfired").contains(r.outcome().dbValue()));
        runs.sort(Comparator.comparing(TaskRun::startedAt));
        boolean overlap = false;
        for (int i = 1; i < runs.size(); i++) {
            overlap |= runs.get(i).startedAt().isBefore(runs.get(i - 1).finishedAt().orElseThrow());
        }
        return new Result(id, report, imported, suppressedCount, messages.length, received.size(), twice, missing, runs, overlap,
                rejectsFile);
    }

    /** Generated recipients: a few with malformed addresses, a few that get suppressed before sending. */
    private List<String> writeRecipients(Path csv) throws Exception {
        List<String> suppressed = new ArrayList<>();
        try (BufferedWriter w = Files.newBufferedWriter(csv)) {
            w.write("email,name,city\n");
            String[] cities = {"Lisbon", "Oslo", "Kraków", "Nairobi", "Osaka", "Quito"};
            for (int i = 1; i <= options.size(); i++) {
                String email = "reader" + i + "@" + DOMAIN;
                if (i % 1000 == 7) {
                    email = "reader" + i + "@@broken";        // invalid syntax: rejected at import
                } else if (i % 1000 == 13) {
                    suppressed.add(email);                    // suppressed after import: skipped at claim
                }
                w.write(email + ",Reader " + i + "," + cities[i % cities.length] + "\n");
            }
        }
        return suppressed;
    }

    private AppContext withDemoSettings(AppContext base, int smtpPort) {
        MailrunConfig c = base.config();
        String secret = Base64.getUrlEncoder().encodeToString(new SecureRandom().generateSeed(33));
        int httpPort = freePort();
        SmtpSettings smtp = new SmtpSettings("127.0.0.1", smtpPort, TlsMode.NONE, Optional.empty(), Optional.empty(),
                Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(10), "demo.mailrun.invalid",
                options.connections(), options.rate());
        SendSettings send = new SendSettings(c.send().batchMax(), c.send().maxAttempts(),
                c.send().retryBase(), c.send().failureRule(), c.send().flush(), c.send().batchOverhead(), c.send().hardBounceRule(),
                DailyCap.NONE, DomainGroups.NONE);
        Duration margin = Duration.ofMillis(Math.max(500, options.interval().toMillis() / 10));
        MailrunConfig demo = new MailrunConfig(c.db(), new TickConfig(options.interval(), margin, Duration.ofSeconds(10), c.tick().runHistory(),
                        c.tick().fallbackHost()),
                send, c.templatesDir(),
                new UnsubscribeConfig(Optional.of(Secret.of(secret)), Optional.of("http://127.0.0.1:" + httpPort),
                        Optional.empty(), Optional.of(httpPort)),
                "127.0.0.1", new AdminConfig(Optional.of(freePort()), "127.0.0.1", Optional.empty()), c.bounce(),
                Optional.empty(), c.imports(), c.log(), FeedbackConfig.NONE, Relays.single(Relays.DEFAULT, smtp),
                // The demo sends to its own sink: no event endpoints, tracking or replies mailbox of the operator's.
                EventsSettings.NONE, ContentConfig.DEFAULTS, TrackingConfig.OFF, RepliesConfig.NONE, c.webVersion(), c.signup(),
                c.smtpKeepWarm());
        return base.with(demo);
    }

    private static int freePort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("no free port for the demo's HTTP listeners", e);
        }
    }

    public static void print(Result r, PrintWriter out) {
        CampaignReport rep = r.report();
        out.println();
        out.println("Demo campaign " + r.campaignId() + ": " + rep.campaign().status().dbValue()
                + rep.campaign().pauseReason().map(p -> " (" + p + ")").orElse(""));
        out.println("  imported " + r.imported().imported() + " of " + r.imported().rows() + " rows; rejected "
                + r.imported().rejected() + " (invalid addresses, listed in " + r.rejectsFile() + ")");
        StringBuilder counts = new StringBuilder("  recipients:");
        for (RecipientStatus st : RecipientStatus.values()) {
            counts.append(' ').append(st.dbValue()).append('=').append(rep.counts().get(st));
        }
        out.println(counts);
        out.println("  SMTP server received " + r.messagesReceived() + " messages for " + r.addressesReceived()
                + " addresses; received twice: " + r.addressesReceivedTwice() + "; sent but not received: " + r.validMissing());
        out.println("  suppressed before sending: " + r.suppressedAddresses() + " addresses, none of them mailed");
        out.println("  runs (" + r.runs().size() + "), never overlapping: " + (r.overlap() ? "NO — overlap found" : "yes"));
        for (TaskRun run : r.runs()) {
            out.printf("    %s  %-10s %s duration %-7s utilisation %-5s overrun %s%n", run.startedAt(),
                    run.outcome().dbValue(), RunCounts.of(run.summary()).map(c -> String.format(
                            "sent %-5d suppressed %-3d failed %-3d deferred %-3d handed back %-3d", c.sent(), c.suppressed(),
                            c.failed(), c.deferred(), c.handedBack())).orElse("nothing sent"),
                    run.duration().map(d -> String.format("%.1fs", d.toMillis() / 1000.0)).orElse("-"),
                    run.utilisation().map(u -> String.format("%.0f%%", u * 100)).orElse("-"),
                    run.overrun().map(o -> o.toMillis() + "ms").orElse("-"));
        }
        out.println(r.ok() ? "Every valid recipient received exactly one message." : "The demo found a problem (see above).");
    }
}
