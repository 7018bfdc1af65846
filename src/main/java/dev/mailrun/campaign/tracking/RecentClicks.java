package dev.mailrun.campaign.tracking;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The last click of each message lately followed, in memory only, for the rule "several links of
 * one message within a second". Holds at most {@code capacity} messages (the least recently
 * clicked go first): the rule only needs the last second.
 */
final class RecentClicks {

    private record Last(int linkIndex, Instant at) {}

    private final LinkedHashMap<String, Last> last;

    RecentClicks(int capacity) {
        this.last = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Last> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * Records a click on {@code linkIndex} of the message (campaign, recipient) at {@code at} and
     * returns when another link of it was last followed, if it was.
     */
    synchronized Optional<Instant> clicked(long campaignId, long recipientId, int linkIndex, Instant at) {
        Last before = last.put(campaignId + ":" + recipientId, new Last(linkIndex, at));
        if (before == null || before.linkIndex() == linkIndex) {
            return Optional.empty();
        }
        return Optional.of(before.at());
    }
}
