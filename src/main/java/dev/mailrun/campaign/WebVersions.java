package dev.mailrun.campaign;

import dev.mailrun.campaign.content.PinnedTemplates;
import dev.mailrun.campaign.model.AbState;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.Variant;
import dev.mailrun.campaign.model.WebVersionMode;
import dev.mailrun.campaign.send.deliver.RecipientValues;
import dev.mailrun.campaign.send.deliver.UnsubscribeLinks;
import dev.mailrun.campaign.store.AbTable;
import dev.mailrun.campaign.store.CampaignTable;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.campaign.store.recipient.RecipientRows;
import dev.mailrun.db.Transactions;
import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.feedback.SendIds;
import dev.mailrun.mail.template.CompiledTemplate;
import dev.mailrun.mail.template.LoadResult;
import dev.mailrun.mail.template.MergeFields;
import dev.mailrun.mail.template.RenderResult;
import dev.mailrun.mail.template.RenderedContent;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web version of a message (docs/CONTENT.md, "Web version"): the HTML part of what one recipient
 * was sent, rendered again from the campaign's pinned version (their variant's, in an A/B test) with
 * the values their message had ({@link RecipientValues}). Its links are as the template writes them,
 * never rewritten for tracking, and it has no open image: the template is loaded as written, whatever
 * the campaign tracks.
 *
 * <p>Without personal fields (the campaign's web version {@code anonymous}, or a campaign without a setting
 * of its own under {@code webversion.personal=false}; read when the page is served), and for a test send's
 * link (whose fields are not stored), the page has only the campaign's fields: the address, name and imported
 * columns are empty, so fields with a default show the template's default, and the unsubscribe link,
 * which would name the recipient, is empty.
 */
public final class WebVersions {

    private static final Logger log = LoggerFactory.getLogger(WebVersions.class);

    private final DataSource dataSource;
    private final PinnedTemplates templates;
    private final UnsubscribeLinks links;
    private final WebVersionMode byDefault;
    private final CampaignTable campaigns = new CampaignTable();
    private final RecipientRows recipients = new RecipientRows();
    private final AbTable tests = new AbTable();

    /** @param personal whether the pages of a campaign without a setting of its own show the recipient's fields (webversion.personal) */
    public WebVersions(DataSource dataSource, PinnedTemplates templates, UnsubscribeLinks links, boolean personal) {
        this.dataSource = dataSource;
        this.templates = templates;
        this.links = links;
        this.byDefault = WebVersionMode.of(personal);
    }

    private record Read(Optional<Campaign> campaign, Optional<ClaimedRecipient> recipient, Optional<AbState> test) {}

    /**
     * The page of {@code recipientId}'s message of {@code campaignId}, its {@code {{ web_url }}} being
     * {@code webUrl} (the link it is served at, so the page never makes a link that outlives it);
     * empty when the campaign or recipient is gone or the message cannot be rendered again.
     */
    public Optional<String> page(long campaignId, long recipientId, String webUrl) throws SQLException {
        boolean test = recipientId == SendIds.TEST_RECIPIENT;
        Read read = Transactions.readSnapshot(dataSource, c -> read(c, campaignId, recipientId, test));
        if (read.campaign().isEmpty() || (read.recipient().isEmpty() && !test)) {
            return Optional.empty();
        }
        Campaign campaign = read.campaign().get();
        Optional<Variant> variant = Optional.empty();
        if (read.test().isPresent() && !test) {
            AbState ab = read.test().get();
            Integer position = read.recipient().get().variant();
            Optional<Integer> sent = position != null ? Optional.of(position) : ab.winner();
            if (sent.isEmpty()) {
                return Optional.empty();   // neither a variant nor a winner: no message was built for it
            }
            variant = Optional.of(ab.test().variant(sent.get()));
        }
        Optional<ContentPin> pin = pin(campaign, variant, templates.pins(campaignId));
        if (pin.isEmpty()) {
            return Optional.empty();
        }
        LoadResult loaded = templates.load(pin.get());
        if (loaded instanceof LoadResult.Invalid invalid) {
            log.warn("web version of campaign {} recipient {}: {}", campaignId, recipientId, invalid.problems().get(0));
            return Optional.empty();
        }
        CompiledTemplate template = ((LoadResult.Loaded) loaded).template();
        Campaign shown = variant.map(campaign::as).orElse(campaign);
        Map<String, String> fields = variant.map(Variant::fields).orElse(Map.of());
        Map<String, Object> values;
        if (campaign.webVersionOr(byDefault) == WebVersionMode.PERSONAL && !test) {
            ClaimedRecipient r = read.recipient().get();
            try {
                values = RecipientValues.of(shown, fields, r, links.url(campaignId, recipientId, r.email()), webUrl);
            } catch (RejectedMessageException e) {
                return Optional.empty();
            }
        } else {
            values = impersonal(template, shown, fields, webUrl);
        }
        RenderResult result = template.render(values);
        if (!(result instanceof RenderResult.Rendered rendered)) {
            log.info("web version of campaign {} recipient {} not shown: {}", campaignId, recipientId,
                    ((RenderResult.Rejected) result).reason());
            return Optional.empty();
        }
        return Optional.of(html(rendered.content()));
    }

    private Read read(Connection c, long campaignId, long recipientId, boolean test) throws SQLException {
        Optional<Campaign> campaign = campaigns.find(c, campaignId);
        if (campaign.isEmpty()) {
            return new Read(campaign, Optional.empty(), Optional.empty());
        }
        return new Read(campaign, test ? Optional.empty() : recipients.find(c, campaignId, recipientId),
                tests.find(c, campaignId, false));
    }

    /** The version the message was sent from: a variant with a template of its own has its own pin, as a run compiles it. */
    private static Optional<ContentPin> pin(Campaign campaign, Optional<Variant> variant, PinnedTemplates.Pins pins) {
        Optional<String> own = variant.flatMap(Variant::template).filter(t -> !t.equals(campaign.template()));
        if (own.isPresent()) {
            return Optional.ofNullable(pins.variants().get(variant.get().name()));
        }
        return pins.campaign();
    }

    /**
     * Only the campaign's values: every column the template needs without a default is empty, as
     * are the address, the name and the unsubscribe link.
     */
    private static Map<String, Object> impersonal(CompiledTemplate template, Campaign campaign, Map<String, String> fields,
                                                  String webUrl) {
        Map<String, String> columns = new HashMap<>(fields);
        template.requiredColumns().forEach(column -> columns.putIfAbsent(column, ""));
        return MergeFields.of("", "", columns, "", webUrl, campaign.name());
    }

    /** The HTML part; a template whose HTML part is blank shows its text part instead. */
    private static String html(RenderedContent content) {
        if (!content.html().isBlank()) {
            return content.html();
        }
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + escape(content.subject())
                + "</title></head><body><pre style=\"white-space: pre-wrap\">" + escape(content.text()) + "</pre></body></html>\n";
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
