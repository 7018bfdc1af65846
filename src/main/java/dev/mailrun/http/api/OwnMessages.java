package dev.mailrun.http.api;

import dev.mailrun.campaign.AudienceNames;
import dev.mailrun.campaign.CampaignForm;
import dev.mailrun.campaign.Campaigns;
import dev.mailrun.campaign.content.BodyFormat;
import dev.mailrun.campaign.content.MessageForm;
import dev.mailrun.campaign.content.OwnMessage;
import dev.mailrun.campaign.model.InvalidFields;
import dev.mailrun.campaign.model.TrackingMode;
import dev.mailrun.campaign.send.route.Relays;
import dev.mailrun.campaign.variant.AbForm;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code POST /campaigns} with a {@code message}: a campaign's own message read from JSON, and the
 * domain's problems with it named as the JSON names them ({@code message.body}, …). The rules are the
 * campaign service's (docs/CONTENT.md, "A campaign's own message").
 */
final class OwnMessages {

    /** The domain's fields of a message, nested under {@code message} in the API's JSON. */
    private static final Set<String> MESSAGE_FIELDS = Set.of("layout", "subject", "body", "text");

    private OwnMessages() {}

    static long create(Campaigns campaigns, CampaignForm form, Relays relays, AbForm ab, Optional<TrackingMode> tracking,
                       CampaignsApi.MessageBody m, AudienceNames lists) throws SQLException {
        String layout = Strings.required("message.layout", m.layout(), 64);
        if (m.body() == null || m.body().isBlank()) {
            throw ApiException.invalid("message.body", "is required");
        }
        BodyFormat format = m.format() == null ? BodyFormat.HTML : BodyFormat.named(m.format())
                .orElseThrow(() -> ApiException.invalid("message.format", "must be markdown or html, got '" + Shown.of(m.format()) + "'"));
        OwnMessage message = new OwnMessage(m.subject() == null ? "" : m.subject(), m.body(), format, Optional.ofNullable(m.text()));
        try {
            return campaigns.create(form, relays, ab, List.of(), tracking, new MessageForm(layout, message), lists);
        } catch (InvalidFields e) {
            throw new InvalidFields(e.problems().stream()
                    .map(p -> MESSAGE_FIELDS.contains(p.field()) ? new InvalidFields.Problem("message." + p.field(), p.item(), p.detail()) : p)
                    .toList());
        }
    }
}
