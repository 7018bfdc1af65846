package dev.mailrun.campaign.audience;

import java.util.Map;
import java.util.Optional;

/**
 * What to change of one subscriber ({@link Subscribers#change}); an empty part stays as it is.
 *
 * @param name       blank: removed
 * @param attributes they replace the stored ones (an empty map removes them)
 * @param status     {@code enabled} (takes the subscriber off the blocklist) or {@code blocklisted}
 */
public record SubscriberPatch(Optional<String> name, Optional<Map<String, ?>> attributes, Optional<String> status) {

    public SubscriberPatch {
        name = name == null ? Optional.empty() : name;
        attributes = attributes == null ? Optional.empty() : attributes;
        status = status == null ? Optional.empty() : status;
    }
}
