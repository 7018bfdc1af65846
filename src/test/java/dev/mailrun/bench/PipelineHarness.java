package dev.mailrun.bench;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
import dev.mailrun.mail.smtp.WarmConnections;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskStore;
import dev.mailrun.testing.FixedLinks;
import dev.mailrun.testing.OneRelaySettings;
import dev.mailrun.testing.SendDependenciesFixtures;
import dev.mailrun.testing.TestTiming;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import javax.sql.DataSource;

/** The real sending stack — scheduler, campaign task, SMTP pool — wired as the worker wires it. */
public final class PipelineHarness implements AutoCloseable {

    public static final String TEMPLATE = "welcome";
    public static final Secret MESSAGE_ID_KEY = Secret.of("message-id-key-for-benchmarks-0123456789");

    public final Scheduler scheduler;
    public final Campaigns campaigns;
    public final TaskStore tasks;
    /** The SMTP sessions kept from one run to the next, as a worker keeps them by default. */
    public final WarmConnections warm;

    public PipelineHarness(DataSource ds, Clock clock, int smtpPort, int connections, Duration interval,
                           OneRelaySettings settings, SchedulerConfig schedulerConfig) {
        this(ds, clock, smtp(smtpPort, connections), interval, settings, schedulerConfig);
    }

    public PipelineHarness(DataSource ds, Clock clock, SmtpSettings smtp, Duration interval,
                           OneRelaySettings settings, SchedulerConfig schedulerConfig) {
        TemplateLoader templates = new TemplateLoader(Path.of("templates"));
        warm = WarmConnections.keptFor(WarmConnections.DEFAULT_KEEP_WARM, clock);
        SendTask handler = new SendTask(SendDependenciesFixtures.withWarm(SendDependenciesFixtures.oneRelay(ds, templates,
                smtp, MESSAGE_ID_KEY, new FixedLinks(),
                settings, () -> new Random(42), TestTiming.realTime(clock)), warm));
        scheduler = new Scheduler(ds, HandlerRegistry.of(handler), schedulerConfig, clock);
        tasks = new TaskStore(ds);
        campaigns = new Campaigns(ds, tasks, templates, clock, interval);
    }

    public static SmtpSettings smtp(int port, int connections) {
        return SmtpSettings.of("127.0.0.1", port, TlsMode.NONE, "mailrun.bench")
                .withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(10))
                .withConnections(connections);
    }

    public long newCampaign(String name) throws SQLException {
        return newCampaign(name, List.of());
    }

    /** A campaign of the benchmark template carrying {@code attachments}. */
    public long newCampaign(String name, List<Attachment> attachments) throws SQLException {
        return campaigns.create(new NewCampaign(name, TEMPLATE, "news@sender.example", Optional.of("Sender News"),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()), Optional.empty(), attachments);
    }

    @Override
    public void close() {
        scheduler.close();
        warm.close();
    }
}
