package dev.mailrun.fault;

import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.model.NewCampaign;
import dev.mailrun.campaign.send.SendTask;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.TlsMode;
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
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import javax.sql.DataSource;

/** The real sending stack (scheduler, campaign task, SMTP pool) in this JVM, as the worker wires it. */
final class InProcessSender implements AutoCloseable {

    final Scheduler scheduler;
    final Campaigns campaigns;

    InProcessSender(DataSource ds, Clock clock, SmtpSettings smtp, Path templatesDir, Duration interval,
                    OneRelaySettings settings, String owner) {
        TemplateLoader templates = new TemplateLoader(templatesDir);
        SendTask handler = new SendTask(SendDependenciesFixtures.oneRelay(ds, templates, smtp,
                Secret.of("message-id-key-for-fault-tests-0123456789"), new FixedLinks(), settings, () -> new Random(7),
                TestTiming.realTime(clock)));
        scheduler = new Scheduler(ds, HandlerRegistry.of(handler), SchedulerConfig.defaults(owner), clock);
        campaigns = new Campaigns(ds, new TaskStore(ds), templates, clock, interval);
    }

    static SmtpSettings smtp(int port, Duration timeouts) {
        return SmtpSettings.of("127.0.0.1", port, TlsMode.NONE, "mailrun.test")
                .withTimeouts(timeouts, timeouts, timeouts)
                .withConnections(4);
    }

    long newCampaign(String name, String template) throws Exception {
        return campaigns.create(new NewCampaign(name, template, "news@sender.example", Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()));
    }

    @Override
    public void close() {
        scheduler.close();
    }
}
