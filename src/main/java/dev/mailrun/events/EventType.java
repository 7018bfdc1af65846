package dev.mailrun.events;

import java.util.Arrays;
import java.util.Optional;

/**
 * The types of event mailrun writes to its outbox (docs/EVENTS.md): what receivers see in
 * {@code type} and what {@code events.<name>.types} selects ({@link #optional()} ones only by name).
 */
public enum EventType {
    RECIPIENT_SENT("recipient.sent", false),
    RECIPIENT_FAILED("recipient.failed", false),
    /** Optional: a temporary failure, tried again later. */
    RECIPIENT_DEFERRED("recipient.deferred", true),
    RECIPIENT_BOUNCED("recipient.bounced", false),
    RECIPIENT_COMPLAINED("recipient.complained", false),
    RECIPIENT_UNSUBSCRIBED("recipient.unsubscribed", false),
    RECIPIENT_SUPPRESSED("recipient.suppressed", false),
    RECIPIENT_UNSUPPRESSED("recipient.unsuppressed", false),
    CAMPAIGN_STARTED("campaign.started", false),
    CAMPAIGN_PAUSED("campaign.paused", false),
    CAMPAIGN_RESUMED("campaign.resumed", false),
    CAMPAIGN_COMPLETED("campaign.completed", false),
    CAMPAIGN_CANCELLED("campaign.cancelled", false),
    CAMPAIGN_EXPIRED("campaign.expired", false),
    RELAY_DOWN("relay.down", false),
    RELAY_UP("relay.up", false),
    ENDPOINT_DISABLED("endpoint.disabled", false),
    SUBSCRIBER_CREATED("subscriber.created", false),
    SUBSCRIBER_UPDATED("subscriber.updated", false),
    SUBSCRIPTION_CHANGED("subscription.changed", false),
    SUBSCRIBER_BLOCKLISTED("subscriber.blocklisted", false),
    SUBSCRIBER_DELETED("subscriber.deleted", false),
    /** Optional: a sending run's summary. */
    RUN_FINISHED("run.finished", true),
    /** A person's data erased (docs/ERASURE.md): carries no address, only the subscriber's id and the way it came. */
    SUBSCRIBER_ERASED("subscriber.erased", false);

    private final String wireName;
    private final boolean optional;

    EventType(String wireName, boolean optional) {
        this.wireName = wireName;
        this.optional = optional;
    }

    /**
     * An optional type is taken only by an endpoint whose types name it exactly, never by a prefix or
     * {@code *}: it is off unless asked for (each recipient.deferred is one more row per temporary failure).
     */
    public boolean optional() {
        return optional;
    }

    /** As receivers see it: {@code recipient.sent}. */
    public String wireName() {
        return wireName;
    }

    public static Optional<EventType> fromWire(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName.equals(name)).findFirst();
    }
}
