package dev.mailrun.campaign.send.scope;

/**
 * The campaign's send counters as checkpointed in its task's metadata under {@link #METADATA_KEY},
 * always in the same transaction as the recipient rows they count. The component names are the
 * stored JSON's field names: renaming one orphans the counters of every existing campaign.
 *
 * @param recent              the failure window as the recording stage stores it
 * @param rateBaseAttempts    attempts when the hard-bounce rate was last reset…
 * @param rateBaseHardBounces …and hard bounces then
 */
public record SendCounters(long campaignId, long sent, long failed, long retried, long released, long suppressed,
                    long hardBounces, String recent, long rateBaseAttempts, long rateBaseHardBounces) {

    public static final String METADATA_KEY = "progress";

    public static SendCounters start(long campaignId) {
        return new SendCounters(campaignId, 0, 0, 0, 0, 0, 0, "", 0, 0);
    }

    /** These counters with a flush's results added and the failure window as it is now. */
    public SendCounters plus(Tally t, String recent) {
        return new SendCounters(campaignId, sent + t.sent(), failed + t.failed(), retried + t.retried(),
                released + t.released(), suppressed, hardBounces + t.hardBounces(), recent,
                rateBaseAttempts, rateBaseHardBounces);
    }

    /** These counters with the suppressed recipients a claim found and the failure window as it is now. */
    public SendCounters plusSuppressed(int found, String recent) {
        return new SendCounters(campaignId, sent, failed, retried, released, suppressed + found, hardBounces, recent,
                rateBaseAttempts, rateBaseHardBounces);
    }

    /** Attempts and hard bounces since the bounce rate was last reset (on resume after a bounce pause). */
    public long attemptsForRate() {
        return sent + failed - rateBaseAttempts;
    }

    public long hardBouncesForRate() {
        return hardBounces - rateBaseHardBounces;
    }

    public SendCounters withRecent(String value) {
        return new SendCounters(campaignId, sent, failed, retried, released, suppressed, hardBounces, value,
                rateBaseAttempts, rateBaseHardBounces);
    }

    /** Starts the hard-bounce rate afresh from here. */
    public SendCounters rebased() {
        return new SendCounters(campaignId, sent, failed, retried, released, suppressed, hardBounces, recent,
                sent + failed, hardBounces);
    }

    /** Results counted by outcome, not yet in the checkpointed counters. */
    public record Tally(long sent, long failed, long retried, long released, long hardBounces) {

        public static final Tally NONE = new Tally(0, 0, 0, 0, 0);
        public static final Tally SENT = new Tally(1, 0, 0, 0, 0);
        public static final Tally FAILED = new Tally(0, 1, 0, 0, 0);
        public static final Tally HARD_BOUNCE = new Tally(0, 1, 0, 0, 1);
        public static final Tally RETRIED = new Tally(0, 0, 1, 0, 0);
        public static final Tally RELEASED = new Tally(0, 0, 0, 1, 0);

        public Tally plus(Tally other) {
            return new Tally(sent + other.sent, failed + other.failed, retried + other.retried,
                    released + other.released, hardBounces + other.hardBounces);
        }
    }
}
