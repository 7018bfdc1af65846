package dev.mailrun.campaign.audience;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mailrun.campaign.store.audience.SubscriberEventTable;
import dev.mailrun.campaign.store.audience.SubscriberTable;
import dev.mailrun.campaign.store.audience.SubscriptionTable;
import dev.mailrun.campaign.store.recipient.AddressSends;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * A person's own data as JSON (docs/PREFERENCES.md, "Your data"): the subscriber (address, name,
 * status, times), its attributes, subscriptions, whole history, and the campaigns the address was a
 * recipient of. One object, snake_case names, times in UTC (ISO 8601).
 */
public final class PersonalData {

    /** The most history events and campaigns the file carries: far above a person's, far below a burden. */
    static final int MAX_ROWS = 10_000;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final DataSource dataSource;
    private final SubscriberTable subscribers = new SubscriberTable();
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final SubscriberEventTable history = new SubscriberEventTable();
    private final AddressSends sends = new AddressSends();

    public PersonalData(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The JSON of the subscriber with this address; empty when it is no subscriber. */
    public Optional<String> export(String email) throws SQLException {
        Optional<String> key = Preferences.key(email);
        if (key.isEmpty()) {
            return Optional.empty();
        }
        try (Connection c = dataSource.getConnection()) {
            Optional<SubscriberTable.Stored> s = subscribers.find(c, key.get());
            if (s.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(json(c, Subscriber.of(s.get()), key.get()));
        }
    }

    private String json(Connection c, Subscriber s, String key) throws SQLException {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode subscriber = root.putObject("subscriber");
        subscriber.put("email", s.email());
        subscriber.put("name", s.name().orElse(null));
        subscriber.put("status", s.status().dbValue());
        subscriber.put("created_at", time(s.createdAt()));
        subscriber.put("updated_at", time(s.updatedAt()));
        ObjectNode attributes = root.putObject("attributes");
        for (Map.Entry<String, Object> e : s.attributes().values().entrySet()) {
            attributes.set(e.getKey(), JSON.valueToTree(e.getValue()));
        }
        ArrayNode subs = root.putArray("subscriptions");
        for (SubscriptionTable.Stored sub : subscriptions.ofSubscriber(c, s.id())) {
            subs.addObject().put("list", sub.listName()).put("status", sub.status().dbValue())
                    .put("source", sub.source().dbValue()).put("created_at", time(sub.createdAt()))
                    .put("updated_at", time(sub.updatedAt()));
        }
        ArrayNode events = root.putArray("history");
        for (SubscriberEventTable.Stored e : history.history(c, s.id(), MAX_ROWS)) {
            events.addObject().put("at", time(e.at())).put("kind", e.kind()).put("list", e.listName().orElse(null))
                    .put("detail", e.detail().orElse(null));
        }
        ArrayNode campaigns = root.putArray("campaigns");
        for (AddressSends.Send send : sends.of(c, key, MAX_ROWS)) {
            campaigns.addObject().put("campaign_id", send.campaignId()).put("campaign", send.campaign())
                    .put("status", send.status()).put("sent_at", send.sentAt().map(PersonalData::time).orElse(null));
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a person's data as JSON", e);
        }
    }

    private static String time(Instant at) {
        return at == null ? null : at.toString();
    }
}
