package dev.mailrun.testing;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.report.CampaignReports;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.dkim.DkimSigner;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import javax.sql.DataSource;

/** The real sending stack — scheduler, campaign task, SMTP pool — wired for a test. */
public final class SendingHarness implements AutoCloseable {

    public final SendTask handler;
    public final Scheduler scheduler;
    public final Campaigns campaigns;
    public final TaskStore tasks;
    private final DataSource ds;
    private final Clock clock;

    public SendingHarness(DataSource ds, Clock clock, int smtpPort, Duration interval, OneRelaySettings settings, String owner) {
        this(ds, clock, smtpPort, interval, settings, owner, SendEvents.NONE);
    }

    /** Telling {@code events} what the sending path does, as the metrics are told. */
    public SendingHarness(DataSource ds, Clock clock, int smtpPort, Duration interval, OneRelaySettings settings, String owner,
                          SendEvents events) {
        this(ds, clock, smtpPort, interval, settings, owner, events, Optional.empty());
    }

    /** Signing every message with {@code dkim}. */
    public SendingHarness(DataSource ds, Clock clock, int smtpPort, Duration interval, OneRelaySettings settings, String owner,
                          SendEvents events, Optional<DkimSigner> dkim) {
        this(ds, clock, smtpPort, interval, settings, owner, events, dkim, RecipientFiles.none(AttachmentLimits.DEFAULTS));
    }

    /** Signing every message with {@code dkim} and reading the recipients' own files from {@code recipientFiles}. */
    public SendingHarness(DataSource ds, Clock clock, int smtpPort, Duration interval, OneRelaySettings settings, String owner,
                          SendEvents events, Optional<DkimSigner> dkim, RecipientFiles recipientFiles) {
        this(ds, clock, smtpPort, interval, settings, owner, events, dkim, recipientFiles, 4);
    }

    /**
     * With {@code connections} SMTP connections instead of four: one for a test whose server moves the
     * clock as messages arrive, where another connection's message would move it between the run's
     * decision to send and this message's start.
     */
    public SendingHarness(DataSource ds, Clock clock, int smtpPort, Duration interval, OneRelaySettings settings, String owner,
                          int connections) {
        this(ds, clock, smtpPort, interval, settings, owner, SendEvents.NONE, Optional.empty(),
                RecipientFiles.none(AttachmentLimits.DEFAULTS), connections);
    }

    private SendingHarness(DataSource ds, Clock clock, int smtpPort, Duration interval, OneRelaySettings settings, String owner,
                           SendEvents events, Optional<DkimSigner> dkim, RecipientFiles recipientFiles, int connections) {
        SmtpSettings smtp = SmtpSettings.of("127.0.0.1", smtpPort, TlsMode.NONE, "mailrun.test")
                .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5))
                .withConnections(connections);
        TemplateLoader templates = new TemplateLoader(Path.of("templates"));
        handler = new SendTask(SendDependenciesFixtures.oneRelay(ds, templates, smtp,
                Secret.of("message-id-key-for-tests-0123456789"), new FixedLinks(),
                settings, () -> new Random(42), dkim, TestTiming.realTime(clock), events, recipientFiles));
        scheduler = new Scheduler(ds, HandlerRegistry.of(handler), SchedulerConfig.defaults(owner), clock);
        tasks = new TaskStore(ds);
        campaigns = new Campaigns(ds, tasks, templates, clock, interval);
        this.ds = ds;
        this.clock = clock;
    }

    /** The campaigns' status as this worker's configuration reads it: its send settings and its relay. */
    public CampaignReports reports() {
        return new CampaignReports(ds, tasks, clock, handler.dependencies().settings(), handler.dependencies().relays());
    }

    @Override
    public void close() {
        scheduler.close();
    }
}
