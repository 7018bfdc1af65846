package dev.mailrun.http.api;

import dev.mailrun.campaign.AudienceNames;
import dev.mailrun.campaign.CampaignForm;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.content.BodyFormat;
import dev.mailrun.campaign.content.MessageForm;
import dev.mailrun.campaign.content.OwnMessage;
import dev.mailrun.campaign.model.ContentPin;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.variant.AbForm;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A campaign's own message read from JSON — in {@code POST /campaigns} under {@code message}, and as
 * the whole body of {@code PUT /campaigns/{id}/message} — and the domain's problems with it named as
 * the JSON names them ({@code message.body}, or {@code body}). The rules are the campaign service's
 * (docs/CONTENT.md, "A campaign's own message").
 */
final class OwnMessages {

    /** The domain's fields of a message. */
    private static final Set<String> MESSAGE_FIELDS = Set.of("layout", "subject", "body", "text");

    private OwnMessages() {}

    static long create(Campaigns campaigns, CampaignForm form, Relays relays, AbForm ab, Optional<TrackingMode> tracking,
                       CampaignsApi.MessageBody m, AudienceNames lists) throws SQLException {
        MessageForm message = form("message.", m);
        try {
            return campaigns.create(form, relays, ab, List.of(), tracking, message, lists);
        } catch (InvalidFields e) {
            throw named("message.", e);
        }
    }

    /** A draft, scheduled or paused campaign's own message written, by {@code by}; its new pin. */
    static ContentPin write(Campaigns campaigns, long id, CampaignsApi.MessageBody m, String by) throws SQLException {
        MessageForm message = form("", m);
        try {
            return campaigns.messages().write(id, message, by);
        } catch (InvalidFields e) {
            throw named("", e);
        }
    }

    /** The message the JSON holds, its members named with {@code prefix} in a refusal. */
    private static MessageForm form(String prefix, CampaignsApi.MessageBody m) {
        String layout = Strings.required(prefix + "layout", m.layout(), 64);
        if (m.body() == null || m.body().isBlank()) {
            throw ApiException.invalid(prefix + "body", "is required");
        }
        BodyFormat format = m.format() == null ? BodyFormat.HTML : BodyFormat.named(m.format())
                .orElseThrow(() -> ApiException.invalid(prefix + "format", "must be markdown or html, got '" + Shown.of(m.format()) + "'"));
        return new MessageForm(layout, new OwnMessage(m.subject() == null ? "" : m.subject(), m.body(), format,
                Optional.ofNullable(m.text())));
    }

    private static InvalidFields named(String prefix, InvalidFields e) {
        return new InvalidFields(e.problems().stream()
                .map(p -> MESSAGE_FIELDS.contains(p.field()) ? new InvalidFields.Problem(prefix + p.field(), p.item(), p.detail()) : p)
                .toList());
    }
}
