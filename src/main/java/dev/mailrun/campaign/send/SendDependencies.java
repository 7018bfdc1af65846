package dev.mailrun.campaign.send;

import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.campaign.send.deliver.MessageFactory;
import dev.mailrun.campaign.send.deliver.Messages;
import dev.mailrun.campaign.send.deliver.TrackingLinks;
import dev.mailrun.campaign.send.deliver.UnsubscribeLinks;
import dev.mailrun.campaign.send.deliver.VariantMessages;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.send.scope.SendEvents;
import dev.mailrun.campaign.send.scope.SendSettings;
import dev.mailrun.campaign.send.scope.Timing;
import dev.mailrun.campaign.store.AttachmentTable;
import dev.mailrun.campaign.store.audience.CampaignListTable;
import dev.mailrun.mail.Secret;
import dev.mailrun.mail.dkim.DkimSigner;
import dev.mailrun.mail.message.AttachmentPart;
import dev.mailrun.mail.message.MessageComposer;
import dev.mailrun.mail.message.MessageIds;
import dev.mailrun.mail.smtp.WarmConnections;
import dev.mailrun.mail.template.CompiledTemplate;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import javax.sql.DataSource;

/**
 * What the task needs from the outside world; built once by the application, through this canonical
 * constructor (tests: {@code dev.mailrun.testing.SendDependenciesFixtures}).
 *
 * @param warm the worker's SMTP sessions kept open from one run to the next ({@code smtp.keep-warm})
 */
public record SendDependencies(DataSource dataSource, PinnedTemplates templates, Secret messageIdKey,
                           UnsubscribeLinks links, SendSettings settings, Supplier<RandomGenerator> random,
                           Optional<DkimSigner> dkim, Timing timing, SendEvents events, Relays relays,
                           RecipientFiles recipientFiles, TrackingLinks tracking, WarmConnections warm) {

    /**
     * The messages of {@code campaign}, built as every run builds them: with its attachments read
     * and encoded once, here.
     */
    public MessageFactory messages(Campaign campaign, CompiledTemplate template, Clock clock) throws SQLException {
        List<Attachment> attachments;
        boolean toLists;
        try (Connection c = dataSource.getConnection()) {
            attachments = new AttachmentTable().load(c, campaign.id());
            toLists = !new CampaignListTable().of(c, campaign.id()).isEmpty();
        }
        return factory(campaign, template, MessageFactory.encode(attachments), java.util.Map.of(), toLists, clock);
    }

    /**
     * The messages of an A/B campaign: a factory per variant — its subject, From name, template and
     * fields — all sharing the attachments, encoded once. {@code compiled} holds each variant's
     * template, in position order.
     */
    Messages variantMessages(Campaign campaign, List<CompiledTemplate> compiled, AbState ab, Clock clock)
            throws SQLException {
        List<Attachment> attachments;
        boolean toLists;
        try (Connection c = dataSource.getConnection()) {
            attachments = new AttachmentTable().load(c, campaign.id());
            toLists = !new CampaignListTable().of(c, campaign.id()).isEmpty();
        }
        List<AttachmentPart> parts = MessageFactory.encode(attachments);
        List<MessageFactory> factories = new java.util.ArrayList<>();
        for (int i = 0; i < compiled.size(); i++) {
            Variant v = ab.test().variant(i);
            factories.add(factory(campaign.as(v), compiled.get(i), parts, v.fields(), toLists, clock));
        }
        return new VariantMessages(factories, ab.winner());
    }

    private MessageFactory factory(Campaign campaign, CompiledTemplate template, List<AttachmentPart> parts,
                                   java.util.Map<String, String> fields, boolean toLists, Clock clock) {
        return new MessageFactory(campaign, template, new MessageComposer(clock),
                new MessageIds(EmailAddress.of(campaign.fromAddress()).domain(), messageIdKey), links, dkim,
                parts, recipientFiles, tracking, fields, toLists);
    }
}
