package dev.mailrun.testing;

import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.RelayRoute;
import dev.mailrun.campaign.send.SendDependencies;
import dev.mailrun.campaign.send.deliver.UnsubscribeLinks;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.send.scope.Timing;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.dkim.DkimSigner;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.template.TemplateLoader;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;

/** {@link SendDependencies} for tests that send through one relay. */
public final class SendDependenciesFixtures {

    private SendDependenciesFixtures() {
    }

    /**
     * With one relay: {@code smtp}, named after {@code settings.relay()} (or {@code default} when that
     * is no relay name), at {@code settings.relayRate()}.
     */
    public static SendDependencies oneRelay(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp,
                                            Secret messageIdKey, UnsubscribeLinks links, SendSettings settings,
                                            Supplier<RandomGenerator> random, Optional<DkimSigner> dkim, Timing timing,
                                            SendEvents events) {
        return oneRelay(dataSource, templates, smtp, messageIdKey, links, settings, random, dkim, timing, events,
                RecipientFiles.none(AttachmentLimits.DEFAULTS));
    }

    /** As {@link #oneRelay}, reading the recipients' own files from {@code recipientFiles}. */
    public static SendDependencies oneRelay(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp,
                                            Secret messageIdKey, UnsubscribeLinks links, SendSettings settings,
                                            Supplier<RandomGenerator> random, Optional<DkimSigner> dkim, Timing timing,
                                            SendEvents events, RecipientFiles recipientFiles) {
        return new SendDependencies(dataSource, new PinnedTemplates(dataSource, Clock.systemUTC()), smtp, messageIdKey, links, settings, random, dkim, timing,
                events, Relays.single(RelayRoute.NAME.matcher(settings.relay()).matches() ? settings.relay() : Relays.DEFAULT,
                        smtp, settings.relayRate()), recipientFiles);
    }

    /** With one relay (as {@link #oneRelay}), without DKIM signing and telling nobody what the sending path does. */
    public static SendDependencies oneRelay(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp,
                                            Secret messageIdKey, UnsubscribeLinks links, SendSettings settings,
                                            Supplier<RandomGenerator> random, Timing timing) {
        return oneRelay(dataSource, templates, smtp, messageIdKey, links, settings, random, Optional.empty(), timing,
                SendEvents.NONE);
    }
}
