package dev.mailrun.campaign.audience;

import java.util.Map;
import java.util.Optional;

/**
 * A search of the subscribers as the operator or a client gave it ({@link Subscribers#search}): every
 * part optional, then the page — at most {@code limit} subscribers after the id {@code after}, in id
 * order. The next page starts after the last id of this one ({@link Subscribers.Page#next()}).
 *
 * @param email  the start of the address, case ignored
 * @param list   a list's name: its members only
 * @param status a subscriber's status (enabled, blocklisted), or, with a list, the status of the
 *               subscription to it (unconfirmed, confirmed, unsubscribed)
 * @param attribute an attribute's name and the text its value equals, byte for byte (a number or
 *                  true/false as JSON writes it): {@code plan} and {@code pro}
 */
public record SubscriberSearch(Optional<String> email, Optional<String> list, Optional<String> status, int limit, long after,
                               Optional<Map.Entry<String, String>> attribute) {

    public static final int DEFAULT_LIMIT = 50;
    /** The longest value an attribute is searched for. */
    public static final int MAX_VALUE = 500;

    public SubscriberSearch {
        email = email == null ? Optional.empty() : email;
        list = list == null ? Optional.empty() : list;
        status = status == null ? Optional.empty() : status;
        attribute = attribute == null ? Optional.empty() : attribute;
    }

    public SubscriberSearch(Optional<String> email, Optional<String> list, Optional<String> status, int limit, long after) {
        this(email, list, status, limit, after, Optional.empty());
    }

    /** Everyone, the first page. */
    public static SubscriberSearch all() {
        return new SubscriberSearch(Optional.empty(), Optional.empty(), Optional.empty(), DEFAULT_LIMIT, 0, Optional.empty());
    }
}
