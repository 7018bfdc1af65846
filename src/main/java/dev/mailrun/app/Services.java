package dev.mailrun.app;

import dev.mailrun.app.config.MailrunConfig;
import dev.mailrun.campaign.AddressFilter;
import dev.mailrun.campaign.CampaignReports;
import dev.mailrun.campaign.CampaignSendHandler;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.RecipientImporter;
import dev.mailrun.campaign.SuppressionStore;
import dev.mailrun.campaign.UnsubscribeLinks;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.template.TemplateLoader;
import dev.mailrun.scheduler.HandlerRegistry;
import dev.mailrun.scheduler.Scheduler;
import dev.mailrun.scheduler.SchedulerConfig;
import dev.mailrun.scheduler.TaskStore;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;
import javax.sql.DataSource;

/** The application's parts, built from the configuration: the one place that wires packages together. */
public final class Services {

    private final AppContext ctx;
    private final MailrunConfig config;
    private final Function<Services, UnsubscribeLinks> links;

    /**
     * @param links builds the unsubscribe links; production uses signed links from the configured
     *              secret, the demo its own local endpoint
     */
    public Services(AppContext ctx, Function<Services, UnsubscribeLinks> links) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.links = links;
    }

    public MailrunConfig config() {
        return config;
    }

    public Clock clock() {
        return ctx.clock();
    }

    public DataSource dataSource() {
        return ctx.dataSource();
    }

    public TaskStore tasks() {
        return new TaskStore(dataSource());
    }

    public TemplateLoader templates() {
        return new TemplateLoader(config.templatesDir());
    }

    public Campaigns campaigns() {
        return new Campaigns(dataSource(), tasks(), templates(), clock(), config.tick().interval());
    }

    public CampaignReports reports() {
        return new CampaignReports(dataSource(), tasks(), clock(), config.smtp().ratePerSecond());
    }

    public RecipientImporter importer() {
        return new RecipientImporter(dataSource(), new SuppressionStore(), AddressFilter.none(), clock(),
                RecipientImporter.DEFAULT_BATCH);
    }

    /** The Message-ID signing key is derived from the unsubscribe secret, so one secret covers both. */
    public Secret messageIdKey() {
        return Secret.of("message-id:" + config.unsubscribe().requireSecret().reveal());
    }

    public CampaignSendHandler sendHandler() {
        return new CampaignSendHandler(new CampaignSendHandler.Dependencies(dataSource(), templates(), config.smtp(),
                messageIdKey(), links.apply(this), config.send(), SecureRandom::new));
    }

    public Scheduler scheduler() {
        SchedulerConfig sc = SchedulerConfig.defaults()
                .withSafetyMargin(SchedulerConfig.SafetyMargin.fixed(config.tick().safetyMargin()));
        return new Scheduler(dataSource(), HandlerRegistry.of(List.of(sendHandler())), sc, clock());
    }
}
