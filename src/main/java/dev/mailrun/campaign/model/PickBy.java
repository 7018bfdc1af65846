package dev.mailrun.campaign.model;

import java.util.Optional;

/**
 * How an A/B test's winner is picked. Whether a measure can be used today is decided in one place,
 * {@link #unavailable()}: when click tracking lands, {@code CLICKS} is lifted there and nowhere else.
 */
public enum PickBy {
    /** The highest click rate: needs click tracking. */
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
     * Why this measure cannot pick a winner yet; empty when it can. Neither clicks nor replies are
     * recorded per recipient today: nothing counts a click, and replies go to the From or Reply-To
     * mailbox, which mailrun never reads (its bounce mailbox sees only the return path).
     */
    public Optional<String> unavailable() {
        return switch (this) {
            case CLICKS -> Optional.of("--pick-by clicks needs click tracking, which mailrun does not have yet; use --pick-by manual");
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
