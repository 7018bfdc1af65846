package dev.mailrun.campaign.tracking;

import dev.mailrun.campaign.model.TrackingClass;
import dev.mailrun.campaign.model.TrackingEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * Tells people from machines: the one place the rules live (docs/TRACKING.md, "Classification").
 * The first rule that matches decides:
 *
 * <ol>
 *   <li>{@code HEAD} → scanner. Mail clients and browsers fetch with GET; a HEAD checks a link
 *       without reading it.</li>
 *   <li>A known scanner user agent (security gateways, HTTP libraries) → scanner.</li>
 *   <li>An open from a known image proxy (Apple Mail Privacy Protection by its network or its bare
 *       user agent, Yahoo's image proxy by its user agent) → machine_open: the proxy fetches whether
 *       or not anyone reads the message.</li>
 *   <li>A click within {@code scannerWindow} of delivery → scanner: gateways follow every link in
 *       the seconds after a message arrives, people do not read that fast.</li>
 *   <li>A click on a link within 1 s of another link of the same message → scanner: a person
 *       follows one link at a time. The click that began such a burst becomes a scanner's too
 *       ({@link #inBurst}): clicks are held for that second before they are stored.</li>
 *   <li>A client known to be a person ({@code person-ua}: Outlook on the desktop, and Gmail's image
 *       proxy, which fetches when the person opens the message — proxied, so no device or place) →
 *       human, with its family; else a user agent that names a browser engine ({@code Mozilla/…},
 *       {@code Opera/…}) → human.</li>
 *   <li>Anything else (no user agent, an unknown tool) → unknown.</li>
 * </ol>
 *
 * The family it reports is coarse on purpose (the proxy's name, {@code scanner}, {@code browser}):
 * enough to read a report, too little to tell anyone apart.
 */
public final class Classifier {

    /** Two links of one message followed closer together than this: not a person. */
    static final Duration LINKS_APART = Duration.ofSeconds(1);

    /** A class and the coarse client family, when known. */
    public record Verdict(TrackingClass trackingClass, Optional<String> family) {}

    private final MachineList machines;
    private final Duration scannerWindow;

    public Classifier(MachineList machines, Duration scannerWindow) {
        if (scannerWindow.isNegative()) {
            throw new IllegalArgumentException("scanner window must not be negative: " + scannerWindow);
        }
        this.machines = machines;
        this.scannerWindow = scannerWindow;
    }

    public Verdict classify(TrackedRequest r) {
        String ua = r.userAgent().strip();
        if (r.head()) {
            return verdict(TrackingClass.SCANNER, "scanner");
        }
        if (!ua.isEmpty() && machines.scanner(ua)) {
            return verdict(TrackingClass.SCANNER, "scanner");
        }
        if (!r.click()) {
            Optional<String> proxy = machines.imageProxy(ua, r.client());
            if (proxy.isPresent()) {
                return new Verdict(TrackingClass.MACHINE_OPEN, proxy);
            }
        } else {
            if (r.at().isBefore(r.deliveredAt().plus(scannerWindow))) {
                return verdict(TrackingClass.SCANNER, "scanner");
            }
            if (r.otherLinkClicked().isPresent() && burst(r.otherLinkClicked().get(), r.at())) {
                return verdict(TrackingClass.SCANNER, "scanner");
            }
        }
        Optional<String> person = ua.isEmpty() ? Optional.empty() : machines.person(ua);
        if (person.isPresent()) {
            return new Verdict(TrackingClass.HUMAN, person);
        }
        String lower = ua.toLowerCase(Locale.ROOT);
        if (lower.startsWith("mozilla/") || lower.startsWith("opera/")) {
            return verdict(TrackingClass.HUMAN, "browser");
        }
        return new Verdict(TrackingClass.UNKNOWN, Optional.empty());
    }

    /** Rule 5: whether clicks on two links of one message at {@code a} and {@code b} are too close for a person. */
    static boolean burst(Instant a, Instant b) {
        return Duration.between(a, b).abs().compareTo(LINKS_APART) < 0;
    }

    /**
     * Rule 5 for the click that began a burst: classified before the next link was followed, it is a
     * scanner's as well once that link is ({@link ClickHold}).
     */
    static TrackingEvent inBurst(TrackingEvent first) {
        return new TrackingEvent(first.campaignId(), first.recipientId(), first.click(), first.linkIndex(),
                TrackingClass.SCANNER, Optional.of("scanner"), first.at());
    }

    private static Verdict verdict(TrackingClass c, String family) {
        return new Verdict(c, Optional.of(family));
    }
}
