package dev.mailrun.campaign.send.deliver;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.mailrun.campaign.model.Campaign;
import dev.mailrun.campaign.store.ClaimedRecipient;
import dev.mailrun.mail.RejectedMessageException;
import dev.mailrun.mail.template.MergeFields;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * What a template sees for one recipient: their stored columns, the campaign-level fields (an A/B
 * variant's, which win over a column of the same name) and the built-in fields. The one place this
 * is put together, for the message ({@link MessageFactory}) and for its web version alike, so the
 * page shows what the message said.
 */
public final class RecipientValues {

    /** A reader bound to the type once: readValue with a TypeReference resolves the type on every call. */
    private static final ObjectReader FIELDS = new ObjectMapper().readerFor(new TypeReference<Map<String, String>>() {});

    private RecipientValues() {
    }

    /**
     * @param campaign       the campaign as the recipient's variant has it ({@link Campaign#as})
     * @param campaignFields the variant's fields; empty without one
     * @throws RejectedMessageException when the stored fields do not read back
     */
    public static Map<String, Object> of(Campaign campaign, Map<String, String> campaignFields, ClaimedRecipient r,
                                         String unsubscribeUrl, String webUrl) throws RejectedMessageException {
        Map<String, String> columns = columns(r);
        if (!campaignFields.isEmpty()) {
            columns = new HashMap<>(columns);
            columns.putAll(campaignFields);
        }
        return MergeFields.of(r.email(), r.name() == null ? "" : r.name(), columns, unsubscribeUrl, webUrl, campaign.name());
    }

    private static Map<String, String> columns(ClaimedRecipient r) throws RejectedMessageException {
        if (r.fieldsJson() == null || r.fieldsJson().isEmpty()) {
            return Map.of();
        }
        try {
            return FIELDS.readValue(r.fieldsJson());
        } catch (IOException e) {
            throw new RejectedMessageException("stored merge fields are not a JSON object of strings");
        }
    }
}
