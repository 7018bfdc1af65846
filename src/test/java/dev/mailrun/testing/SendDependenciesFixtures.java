package dev.mailrun.testing;

import dev.mailrun.campaign.attach.AttachmentLimits;
import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.send.SendDependencies;
import dev.mailrun.campaign.send.deliver.TrackingLinks;
import dev.mailrun.campaign.send.deliver.UnsubscribeLinks;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.send.scope.Timing;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.dkim.DkimSigner;
import dev.mailrun.mail.smtp.SmtpSettings;
import dev.mailrun.mail.smtp.WarmConnections;
import dev.mailrun.mail.template.TemplateLoader;
import java.time.Clock;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;

/**
 * {@link SendDependencies} for tests. {@code templates} names the directory a test writes its templates
 * in: campaigns created over it pin them, and the sending path reads only the pinned, stored versions.
 */
public final class SendDependenciesFixtures {

    private SendDependenciesFixtures() {
    }

    /** With one relay: {@code smtp}, named and paced as {@code settings} say ({@link OneRelaySettings#relays}). */
    public static SendDependencies oneRelay(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp,
                                            Secret messageIdKey, UnsubscribeLinks links, OneRelaySettings settings,
                                            Supplier<RandomGenerator> random, Optional<DkimSigner> dkim, Timing timing,
                                            SendEvents events) {
        return oneRelay(dataSource, templates, smtp, messageIdKey, links, settings, random, dkim, timing, events,
                RecipientFiles.none(AttachmentLimits.DEFAULTS));
    }

    /** As {@link #oneRelay}, reading the recipients' own files from {@code recipientFiles}. */
    public static SendDependencies oneRelay(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp,
                                            Secret messageIdKey, UnsubscribeLinks links, OneRelaySettings settings,
                                            Supplier<RandomGenerator> random, Optional<DkimSigner> dkim, Timing timing,
                                            SendEvents events, RecipientFiles recipientFiles) {
        return new SendDependencies(dataSource, new PinnedTemplates(dataSource, Clock.systemUTC()), messageIdKey, links, settings.send(), random, dkim, timing,
                events, settings.relays(smtp), recipientFiles, TrackingLinks.NONE, WarmConnections.off());
    }

    /**
     * Through the configured {@code relays}: what the worker has without DKIM signing, recipients' own
     * files or tracking, telling nobody what the sending path does.
     */
    public static SendDependencies relays(DataSource dataSource, TemplateLoader templates, SendSettings settings,
                                          Timing timing, Relays relays) {
        return new SendDependencies(dataSource, new PinnedTemplates(dataSource, Clock.systemUTC()), Secret.of("message-id-key-for-tests-0123456789"),
                new FixedLinks(), settings, () -> new Random(42), Optional.empty(), timing, SendEvents.NONE, relays,
                RecipientFiles.none(AttachmentLimits.DEFAULTS), TrackingLinks.NONE, WarmConnections.off());
    }

    /** {@code deps} keeping SMTP sessions open from one run to the next in {@code warm}, as the worker does. */
    public static SendDependencies withWarm(SendDependencies d, WarmConnections warm) {
        return new SendDependencies(d.dataSource(), d.templates(), d.messageIdKey(), d.links(), d.settings(), d.random(),
                d.dkim(), d.timing(), d.events(), d.relays(), d.recipientFiles(), d.tracking(), warm);
    }

    /** With one relay (as {@link #oneRelay}), without DKIM signing and telling nobody what the sending path does. */
    public static SendDependencies oneRelay(DataSource dataSource, TemplateLoader templates, SmtpSettings smtp,
                                            Secret messageIdKey, UnsubscribeLinks links, OneRelaySettings settings,
                                            Supplier<RandomGenerator> random, Timing timing) {
        return oneRelay(dataSource, templates, smtp, messageIdKey, links, settings, random, Optional.empty(), timing,
                SendEvents.NONE);
    }
}
