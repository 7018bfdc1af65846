package dev.mailrun.campaign.audience;

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
 */
public record SubscriberSearch(Optional<String> email, Optional<String> list, Optional<String> status, int limit, long after) {

    public static final int DEFAULT_LIMIT = 50;

    public SubscriberSearch {
        email = email == null ? Optional.empty() : email;
        list = list == null ? Optional.empty() : list;
        status = status == null ? Optional.empty() : status;
    }

    /** Everyone, the first page. */
    public static SubscriberSearch all() {
        return new SubscriberSearch(Optional.empty(), Optional.empty(), Optional.empty(), DEFAULT_LIMIT, 0);
    }
}
