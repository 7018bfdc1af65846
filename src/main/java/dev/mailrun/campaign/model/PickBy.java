package dev.mailrun.campaign.model;

import java.util.Optional;

/**
 * How an A/B test's winner is picked. Whether a measure can be used at all is decided in one place,
 * {@link #unavailable()}; {@code CLICKS} also needs the campaign's clicks tracked, which create checks.
 */
public enum PickBy {
    /** The highest rate of recipients with a human click per delivered message: needs the campaign's clicks tracked. */
    CLICKS("clicks"),
    /** The highest reply rate: needs replies to be counted per recipient. */
    REPLIES("replies"),
    /** The operator's {@code campaign pick}. */
    MANUAL("manual");

    private final String wireName;

    PickBy(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /**
     * Why this measure cannot pick a winner; empty when it can. Replies are not recorded per recipient:
     * they go to the From or Reply-To mailbox, which mailrun never reads (its bounce mailbox sees only
     * the return path).
     */
    public Optional<String> unavailable() {
        return switch (this) {
            case CLICKS -> Optional.empty();
            case REPLIES -> Optional.of("--pick-by replies needs replies counted per recipient, which mailrun does not record"
                    + " (replies go to the From or Reply-To mailbox); use --pick-by manual");
            case MANUAL -> Optional.empty();
        };
    }

    public static PickBy parse(String text) {
        for (PickBy p : values()) {
            if (p.wireName.equals(text)) {
                return p;
            }
        }
        throw new IllegalArgumentException("--pick-by must be clicks, replies or manual, got '" + text + "'");
    }
}
