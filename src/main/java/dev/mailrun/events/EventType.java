package dev.mailrun.events;

import java.util.Arrays;
import java.util.Optional;

/**
 * The types of event mailrun writes to its outbox (docs/EVENTS.md): what receivers see in
 * {@code type} and what {@code events.<name>.types} selects.
 */
public enum EventType {
    RECIPIENT_SENT("recipient.sent"),
    RECIPIENT_FAILED("recipient.failed"),
    RECIPIENT_BOUNCED("recipient.bounced"),
    RECIPIENT_COMPLAINED("recipient.complained"),
    RECIPIENT_UNSUBSCRIBED("recipient.unsubscribed"),
    RECIPIENT_SUPPRESSED("recipient.suppressed"),
    RECIPIENT_UNSUPPRESSED("recipient.unsuppressed"),
    CAMPAIGN_STARTED("campaign.started"),
    CAMPAIGN_PAUSED("campaign.paused"),
    CAMPAIGN_RESUMED("campaign.resumed"),
    CAMPAIGN_COMPLETED("campaign.completed"),
    CAMPAIGN_CANCELLED("campaign.cancelled"),
    CAMPAIGN_EXPIRED("campaign.expired"),
    RELAY_DOWN("relay.down"),
    RELAY_UP("relay.up"),
    ENDPOINT_DISABLED("endpoint.disabled");

    private final String wireName;

    EventType(String wireName) {
        this.wireName = wireName;
    }

    /** As receivers see it: {@code recipient.sent}. */
    public String wireName() {
        return wireName;
    }

    public static Optional<EventType> fromWire(String name) {
        return Arrays.stream(values()).filter(t -> t.wireName.equals(name)).findFirst();
    }
}
