package dev.mailrun.campaign.tracking;

import java.net.InetAddress;
import java.time.Instant;
import java.util.Optional;

/**
 * What the classifier sees of one request: held in memory while it is answered, never stored.
 *
 * @param head             a HEAD request (not GET)
 * @param click            a click (not an open)
 * @param userAgent        the User-Agent header, empty when there was none
 * @param client           the address the request came from, when known
 * @param at               when it came
 * @param deliveredAt      when the message was delivered (the epoch when it is not known)
 * @param otherLinkClicked when another link of the same message was last followed, if it was
 */
public record TrackedRequest(boolean head, boolean click, String userAgent, Optional<InetAddress> client, Instant at,
                             Instant deliveredAt, Optional<Instant> otherLinkClicked) {}
