package dev.mailrun.campaign.send.deliver;

import dev.mailrun.campaign.attach.RecipientFiles;
import dev.mailrun.campaign.model.Attachment;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.EmailAddress;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.dkim.DkimSigner;
import dev.mailrun.mail.feedback.SendIds;
import dev.mailrun.mail.message.AttachmentPart;
import dev.mailrun.mail.message.CampaignComposer;
import dev.mailrun.mail.message.Mailbox;
import dev.mailrun.mail.message.MessageComposer;
import dev.mailrun.mail.message.MessageIds;
import dev.mailrun.mail.message.RecipientFields;
import dev.mailrun.mail.smtp.Outgoing;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.MergeFields;
import dev.mailrun.mail.template.RenderResult;
import dev.mailrun.mail.template.RenderedContent;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.MimeMessage;
import java.util.AbstractList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * Turns a claimed recipient into a message of one campaign. Made once per run, with the template
 * compiled once; {@link #outgoing} is cheap and rendering happens on the SMTP worker threads.
 */
public final class MessageFactory implements Messages {

    /**
     * Starts the subject of a test send (recipient id {@link SendIds#TEST_RECIPIENT}), which also
     * carries the header {@link dev.mailrun.mail.message.CampaignComposer#TEST_SEND_HEADER}.
     */
    static final String TEST_SUBJECT_PREFIX = "[test] ";

    private final Campaign campaign;
    private final CompiledTemplate template;
    private final CampaignComposer composer;
    private final MessageIds messageIds;
    private final UnsubscribeLinks links;
    private final String fromDomain;
    private final String listId;
    private final Optional<DkimSigner> dkim;
    private final RecipientFiles recipientFiles;
    private final TrackingLinks tracking;
    /** Campaign-level merge fields (an A/B variant's); they win over a recipient's column of the same name. */
    private final Map<String, String> campaignFields;
    /** Whether the template shows {@code web_url}: a link is signed only then, as the tracking URLs are. */
    private final boolean webUrl;
    /**
     * Whether the template shows {@code preferences_url} and the campaign is sent to lists: its
     * recipients are subscribers then, and only then is a link signed (docs/PREFERENCES.md).
     */
    private final boolean preferencesUrl;

    /**
     * Messages that carry {@code attachments}, encoded once ({@link #encode}) and copied into each, with the
     * tracking URLs a template loaded for tracking asks for ({@link CompiledTemplate#tracking()};
     * a template loaded without tracking never reads them), and the campaign-level fields of an A/B
     * variant ({@code campaign} then carries the variant's subject and From name). {@code toLists}: the campaign
     * is sent to lists, so its messages carry a preference centre link when the template asks.
     */
    public MessageFactory(Campaign campaign, CompiledTemplate template, MessageComposer composer, MessageIds messageIds,
                          UnsubscribeLinks links, Optional<DkimSigner> dkim, List<AttachmentPart> attachments,
                          RecipientFiles recipientFiles, TrackingLinks tracking, Map<String, String> campaignFields,
                          boolean toLists) {
        if (template.tracking().isPresent() && !tracking.enabled()) {
            throw new IllegalArgumentException("template " + template.name() + " is tracked but tracking is not enabled");
        }
        this.tracking = tracking;
        this.campaignFields = Map.copyOf(campaignFields);
        this.webUrl = template.usesWebUrl();
        this.preferencesUrl = toLists && template.usesPreferencesUrl();
        this.recipientFiles = recipientFiles;
        this.dkim = dkim;
        this.campaign = campaign;
        this.template = template;
        this.messageIds = messageIds;
        this.links = links;
        this.fromDomain = EmailAddress.of(campaign.fromAddress()).domain();
        this.listId = "c" + campaign.id() + ".lists." + fromDomain;
        // The headers every recipient shares (the operator's own among them) are checked and written once, here.
        this.composer = composer.forCampaign(new Mailbox(campaign.fromAddress(), campaign.fromName().orElse("")),
                campaign.replyTo().map(Mailbox::of), listId, campaign.name(), attachments, campaign.headers().entries());
    }

    /** The campaign's files as the body parts every message copies: encoded here, once per run. */
    public static List<AttachmentPart> encode(List<Attachment> attachments) {
        return attachments.stream().map(a -> a.inline() ? AttachmentPart.inline(a.filename(), a.contentType(), a.content())
                : AttachmentPart.attachment(a.filename(), a.contentType(), a.content())).toList();
    }

    String messageId(long recipientId) {
        return messageIds.derive(campaign.id(), recipientId);
    }

    public Outgoing outgoing(ClaimedRecipient r) {
        return outgoing(r, id -> { });
    }

    /**
     * The message to {@code r}; {@code beforeBuild} gets the recipient's id first, on the thread that
     * builds it, and may block (the sending task waits there until the recipient is marked in flight).
     */
    @Override
    public Outgoing outgoing(ClaimedRecipient r, LongConsumer beforeBuild) {
        return new Outgoing() {
            @Override
            public long key() {
                return r.id();
            }

            @Override
            public MimeMessage build(Session session) throws RejectedMessageException {
                beforeBuild.accept(r.id());
                return MessageFactory.this.build(session, r);
            }

            @Override
            public Optional<String> envelopeFrom() {
                return links.envelopeFrom(campaign.id(), r.id(), r.email());
            }
        };
    }

    MimeMessage build(Session session, ClaimedRecipient r) throws RejectedMessageException {
        String unsubscribeUrl = links.url(campaign.id(), r.id(), r.email());
        Map<String, Object> values = RecipientValues.of(campaign, campaignFields, r, unsubscribeUrl,
                webUrl ? links.webVersion(campaign.id(), r.id()) : "");
        if (preferencesUrl && r.id() != SendIds.TEST_RECIPIENT) {
            links.preferences(campaign.id(), r.email()).ifPresent(url -> MergeFields.withPreferences(values, url));
        }
        if (template.tracking().isPresent()) {
            MergeFields.tracked(values, clicks(r.id()),
                    template.tracking().get().opens() ? tracking.open(campaign.id(), r.id()) : "");
        }
        RenderResult result = template.renderSevenBit(values);
        if (result instanceof RenderResult.Rejected rejected) {
            throw new RejectedMessageException(rejected.reason());
        }
        RecipientFields fields = new RecipientFields(new Mailbox(r.email(), r.name() == null ? "" : r.name()),
                messageId(r.id()), unsubscribeUrl, links.mailto(fromDomain, campaign.id(), r.id(), r.email()),
                Optional.of(new SendIds(campaign.id(), r.id())));
        String prefix = r.id() == SendIds.TEST_RECIPIENT ? TEST_SUBJECT_PREFIX : "";
        Optional<AttachmentPart> own = ownFile(r);
        MimeMessage message;
        if (result instanceof RenderResult.RenderedSevenBit bodies) {
            message = composer.compose(session, fields, prefix + campaign.subjectOverride().orElse(bodies.subject()),
                    bodies.text(), bodies.html(), own);
        } else {
            RenderedContent content = ((RenderResult.Rendered) result).content();
            content = new RenderedContent(prefix + campaign.subjectOverride().orElse(content.subject()), content.text(),
                    content.html());
            message = composer.compose(session, fields, content, own);
        }
        if (dkim.isEmpty()) {
            return message;
        }
        try {
            return dkim.get().sign(message);
        } catch (MessagingException e) {
            throw new IllegalStateException("DKIM signing failed: " + e.getMessage(), e);
        }
    }

    /**
     * The click URLs of one recipient's message, each signed only when the body asks for it: the
     * per-recipient cost of tracking is one signature per link, the rewriting was done once per run.
     */
    private List<String> clicks(long recipientId) {
        int count = template.trackedLinks().size();
        long campaignId = campaign.id();
        return new AbstractList<>() {
            @Override
            public String get(int index) {
                Objects.checkIndex(index, count);
                return tracking.click(campaignId, recipientId, index);
            }

            @Override
            public int size() {
                return count;
            }
        };
    }

    /**
     * The recipient's own file, read now from under content.recipient-files as the import resolved
     * it, and only while it is the file the import checked (same checksum).
     */
    private Optional<AttachmentPart> ownFile(ClaimedRecipient r) throws RejectedMessageException {
        if (r.attachment() == null) {
            return Optional.empty();
        }
        try {
            Attachment a = recipientFiles.read(r.attachment(), r.attachmentSha256());
            return Optional.of(AttachmentPart.attachment(a.filename(), a.contentType(), a.content()));
        } catch (RecipientFiles.FileProblem e) {
            throw new RejectedMessageException(e.getMessage());
        }
    }
}
