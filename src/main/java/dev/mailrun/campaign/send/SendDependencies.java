package dev.mailrun.campaign.send;

import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.deliver.MessageFactory;
import dev.mailrun.campaign.send.deliver.UnsubscribeLinks;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.send.scope.Timing;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.dkim.DkimSigner;
import dev.mailrun.mail.message.MessageComposer;
import dev.mailrun.mail.message.MessageIds;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.TemplateLoader;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;

/** What the task needs from the outside world; built once by the application. */
public record SendDependencies(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp, Secret messageIdKey,
                           UnsubscribeLinks links, SendSettings settings, Supplier<RandomGenerator> random,
                           Optional<DkimSigner> dkim, Timing timing, SendEvents events, Relays relays) {

    /** With one relay: {@code smtp}, named after {@code settings.relay()} (or {@code default}), at {@code settings.relayRate()}. */
    public SendDependencies(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp, Secret messageIdKey,
                        UnsubscribeLinks links, SendSettings settings, Supplier<RandomGenerator> random,
                        Optional<DkimSigner> dkim, Timing timing, SendEvents events) {
        this(dataSource, templates, smtp, messageIdKey, links, settings, random, dkim, timing, events,
                Relays.single(RelayRoute.NAME.matcher(settings.relay()).matches() ? settings.relay() : Relays.DEFAULT,
                        smtp, settings.relayRate()));
    }

    /** Telling nobody what the sending path does (no metrics). */
    public SendDependencies(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp, Secret messageIdKey,
                        UnsubscribeLinks links, SendSettings settings, Supplier<RandomGenerator> random,
                        Optional<DkimSigner> dkim, Timing timing) {
        this(dataSource, templates, smtp, messageIdKey, links, settings, random, dkim, timing, SendEvents.NONE);
    }

    /** Without DKIM signing. */
    public SendDependencies(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp, Secret messageIdKey,
                        UnsubscribeLinks links, SendSettings settings, Supplier<RandomGenerator> random,
                        Timing timing) {
        this(dataSource, templates, smtp, messageIdKey, links, settings, random, Optional.empty(), timing);
    }

    /** The messages of {@code campaign}, built as every run builds them. */
    public MessageFactory messages(Campaign campaign, CompiledTemplate template, Clock clock) {
        return new MessageFactory(campaign, template, new MessageComposer(clock),
                new MessageIds(EmailAddress.of(campaign.fromAddress()).domain(), messageIdKey), links, dkim);
    }
}
