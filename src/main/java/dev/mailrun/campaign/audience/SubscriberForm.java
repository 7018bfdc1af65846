package dev.mailrun.campaign.audience;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One subscriber to add or change ({@link Subscribers#upsert}), as the operator or a client gave it.
 *
 * @param name       empty: kept as it is (none for a new subscriber); blank: removed
 * @param attributes empty: kept as they are; present: they replace the stored ones (an empty map removes them)
 * @param lists      the names of lists to subscribe to; a list the subscriber is on already keeps its subscription
 */
public record SubscriberForm(String email, Optional<String> name, Optional<Map<String, ?>> attributes, List<String> lists) {

    public SubscriberForm {
        name = name == null ? Optional.empty() : name;
        attributes = attributes == null ? Optional.empty() : attributes;
        lists = lists == null ? List.of() : List.copyOf(lists);
    }

    /** Just the address. */
    public static SubscriberForm of(String email) {
        return new SubscriberForm(email, Optional.empty(), Optional.empty(), List.of());
    }
}
