package dev.mailrun.campaign.tracking;

import dev.mailrun.campaign.model.TrackingEvent;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Clicks wait here for {@link Classifier#LINKS_APART} before they reach the {@link EventBuffer}, so
 * that the rule "several links of one message within a second" takes in the whole burst:
 *
 * <ol>
 *   <li>a click is classified as it comes, seeing the held clicks of its message on other links;</li>
 *   <li>when it is a burst with some of them ({@link Classifier#burst}), those become a scanner's
 *       too ({@link Classifier#inBurst}) — the first click of a burst included;</li>
 *   <li>a click is released to the buffer, in the order clicks came, once a second has passed since
 *       it came: no later click can join it in a burst any more.</li>
 * </ol>
 *
 * The clock is read under the same lock as the release reads it, so a click released can never
 * be joined by one that comes after it. Held and buffered events together stay within the buffer's
 * capacity; beyond it a click is dropped and counted, as the buffer drops.
 */
final class ClickHold {

    /** One held click; its event is replaced when a later click makes it part of a burst. */
    private static final class Held {
        final String message;
        final int linkIndex;
        final boolean followed;   // a GET: a HEAD checks a link without following it
        TrackingEvent event;

        Held(String message, int linkIndex, boolean followed, TrackingEvent event) {
            this.message = message;
            this.linkIndex = linkIndex;
            this.followed = followed;
            this.event = event;
        }
    }

    private final Clock clock;
    private final Classifier classifier;
    private final EventBuffer buffer;
    private final TrackingListener listener;
    private final int capacity;
    private final boolean perRecipient;
    private final ArrayDeque<Held> order = new ArrayDeque<>();
    private final Map<String, List<Held>> byMessage = new HashMap<>();

    ClickHold(Clock clock, Classifier classifier, EventBuffer buffer, TrackingListener listener, int capacity,
              boolean perRecipient) {
        this.clock = clock;
        this.classifier = classifier;
        this.buffer = buffer;
        this.listener = listener;
        this.capacity = capacity;
        this.perRecipient = perRecipient;
    }

    /** Classifies a click on link {@code linkIndex} of a message delivered at {@code deliveredAt}, and holds it. */
    synchronized void click(long campaignId, long recipientId, int linkIndex, Tracker.Request request, Instant deliveredAt) {
        if (order.size() + buffer.size() >= capacity) {
            listener.dropped();
            return;
        }
        Instant now = clock.instant();
        String message = campaignId + ":" + recipientId;
        List<Held> same = byMessage.getOrDefault(message, List.of());
        boolean followed = !request.head();
        Optional<Instant> otherLink = Optional.empty();
        if (followed) {
            for (Held h : same) {
                if (h.followed && h.linkIndex != linkIndex
                        && (otherLink.isEmpty() || h.event.at().isAfter(otherLink.get()))) {
                    otherLink = Optional.of(h.event.at());
                }
            }
        }
        Classifier.Verdict verdict = classifier.classify(new TrackedRequest(request.head(), true, request.userAgent(),
                request.client(), now, deliveredAt, otherLink));
        if (followed) {
            for (Held h : same) {
                if (h.followed && h.linkIndex != linkIndex && Classifier.burst(h.event.at(), now)) {
                    h.event = Classifier.inBurst(h.event);
                }
            }
        }
        Held held = new Held(message, linkIndex, followed, new TrackingEvent(campaignId,
                perRecipient ? Optional.of(recipientId) : Optional.empty(), true, linkIndex, verdict.trackingClass(),
                verdict.family(), now));
        order.addLast(held);
        byMessage.computeIfAbsent(message, k -> new ArrayList<>(2)).add(held);
    }

    /** Hands the buffer the clicks a second old or older ({@code all}: every one, at stop), in the order they came. */
    synchronized void release(boolean all) {
        Instant now = clock.instant();
        while (!order.isEmpty() && (all || !Classifier.burst(order.peekFirst().event.at(), now))) {
            Held h = order.removeFirst();
            List<Held> same = byMessage.get(h.message);
            same.remove(h);
            if (same.isEmpty()) {
                byMessage.remove(h.message);
            }
            buffer.offer(h.event);
        }
    }
}
