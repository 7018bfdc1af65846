package dev.mailrun.campaign.model;

/**
 * How an A/B test's winner is picked. {@code CLICKS} needs the campaign's clicks tracked and
 * {@code REPLIES} the replies mailbox configured, which create checks (VariantChecks.refuseUnmeasured).
 */
public enum PickBy {
    /** The highest rate of recipients with a human click per delivered message: needs the campaign's clicks tracked. */
    CLICKS("clicks"),
    /** The highest rate of recipients who replied per delivered message: needs the replies mailbox (replies.imap.host). */
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

    public static PickBy parse(String text) {
        for (PickBy p : values()) {
            if (p.wireName.equals(text)) {
                return p;
            }
        }
        throw new IllegalArgumentException("must be clicks, replies or manual, got '" + text + "'");
    }
}
