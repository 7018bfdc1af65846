package dev.mailrun.campaign.audience;

import dev.mailrun.campaign.model.SubscriberStatus;
import dev.mailrun.campaign.store.audience.SubscriberTable;
import java.time.Instant;
import java.util.Optional;

/** A subscriber as the operator sees one: the address as stored, its name, attributes and status. */
public record Subscriber(long id, String email, Optional<String> name, Attributes attributes, SubscriberStatus status,
                         Instant createdAt, Instant updatedAt) {

    static Subscriber of(SubscriberTable.Stored row) {
        return new Subscriber(row.id(), row.email(), row.name(), Attributes.stored(row.attribs()), row.status(), row.createdAt(),
                row.updatedAt());
    }
}
