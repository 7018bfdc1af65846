package dev.mailrun.campaign.send.scope;

import java.time.Duration;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * What the sending path tells as it goes, for the metrics (docs/METRICS.md). The sending code
 * owns when each call happens; the implementation (Micrometer, in {@code dev.mailrun.metrics}) only
 * counts. Calls come from SMTP worker threads and the flush thread: an implementation must be quick,
 * thread-safe and must never throw. {@link #NONE} ignores everything.
 *
 * <p>{@code relay} is the relay's name ({@code default} for the {@code smtp.*} keys' relay); {@code campaignId}
 * labels the campaign by id, which is stable and bounded where its name is neither.
 */
public interface SendEvents {

    SendEvents NONE = new SendEvents() {};

    /** Where a recipient's attempt ended, as the flush records it. */
    enum Outcome {
        /** Accepted by the relay (250 to the end of data). */
        SENT,
        /** A permanent failure, or a transient one with no attempts left. */
        FAILED,
        /** A transient failure that will be tried again later (status retry). */
        RETRIED,
        /** Found on the suppression list when claimed; never sent. */
        SUPPRESSED,
        /** Claimed but handed back to the queue untried (pause, cancel, shutdown, end of the run). */
        RELEASED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** {@code count} recipients of a campaign reached {@code outcome} in one committed flush. */
    default void messages(long campaignId, Outcome outcome, long count) {}

    /** The relay answered the end of a message (or its envelope) with {@code code}; empty: no reply at all. */
    default void smtpReply(String relay, OptionalInt code) {}

    /** A message waited this long for its rate-limiter permit. */
    default void permitWaited(String relay, Duration waited) {}

    /** This worker's share of the relay's rate changed (messages/s; 0 = unlimited); {@code configured} is smtp.rate. */
    default void relayShare(String relay, double share, double configured) {}

    /**
     * The rates in total that adapt to "too fast" replies, at a relay-share renewal: {@code relay:<host:port>}
     * and {@code domain:<group>} to messages/s, each at its configured rate unless lowered.
     */
    default void adaptedRates(String relay, java.util.Map<String, Double> rates) {}

    /** A "too fast" reply slowed {@code name} ({@code relay:…} or {@code domain:…}) down. */
    default void tooFast(String name) {}

    /** {@code count} recipients whose attempt went through {@code relay} reached {@code outcome} in one committed flush. */
    default void relayMessages(String relay, Outcome outcome, long count) {}

    /** This worker saw {@code relay} go down until {@code downUntil}, or come back up (empty). */
    default void relayState(String relay, java.util.Optional<java.time.Instant> downUntil) {}

    /** An SMTP connection to the relay was opened. */
    default void connectionOpened(String relay) {}

    /** An SMTP connection to the relay was closed (or lost). */
    default void connectionClosed(String relay) {}

    /** A message took this long on its connection to the relay, from MAIL FROM to the reply after its body. */
    default void messageTimed(String relay, Duration took) {}

    /** The relay's pool sized itself for a batch: {@code target} connections, at most {@code ceiling}. */
    default void connectionsSized(String relay, int target, int ceiling) {}
}
