package dev.mailrun.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.events.store.DeliveryTable.StoredEvent;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * The JSON receivers get (docs/EVENTS.md): each event is
 * {@code {"id", "type", "timestamp" (RFC 3339, UTC, milliseconds), "data": {campaign_id, recipient_id,
 * email, the type's fields, fields}}}, the Standard Webhooks payload shape. An endpoint with
 * {@code batch=1} gets one event per request, as that object; otherwise {@code {"events": [...]}}.
 */
final class Payloads {

    static final DateTimeFormatter RFC_3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();

    private Payloads() {}

    static byte[] body(List<StoredEvent> events, boolean single, Map<Long, RecipientLookup.Recipient> recipients,
                       boolean includeFields) {
        try {
            if (single) {
                return JSON.writeValueAsBytes(event(events.get(0), recipients, includeFields));
            }
            ObjectNode root = JSON.createObjectNode();
            ArrayNode list = root.putArray("events");
            for (StoredEvent e : events) {
                list.add(event(e, recipients, includeFields));
            }
            return JSON.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an event's stored fields are not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The request's webhook-id: the event's own id for one event, else derived from the first and the count. */
    static String messageId(List<StoredEvent> events, boolean single) {
        return single ? events.get(0).eventId() : "batch_" + events.get(0).eventId() + "_" + events.size();
    }

    private static ObjectNode event(StoredEvent e, Map<Long, RecipientLookup.Recipient> recipients, boolean includeFields)
            throws JsonProcessingException {
        ObjectNode o = JSON.createObjectNode();
        o.put("id", e.eventId());
        o.put("type", e.type());
        o.put("timestamp", RFC_3339.format(e.occurredAt()));
        ObjectNode data = o.putObject("data");
        if (e.campaignId() != null) {
            data.put("campaign_id", e.campaignId());
        }
        RecipientLookup.Recipient r = e.recipientId() == null ? null : recipients.get(e.recipientId());
        if (e.recipientId() != null) {
            data.put("recipient_id", e.recipientId());
        }
        String email = e.email() != null ? e.email() : r == null ? null : r.email();
        if (email != null) {
            data.put("email", email);
        }
        if (e.data() != null) {
            data.setAll((ObjectNode) JSON.readTree(e.data()));
        }
        if (includeFields && r != null) {
            data.set("fields", JSON.valueToTree(r.fields()));
        }
        return o;
    }
}
