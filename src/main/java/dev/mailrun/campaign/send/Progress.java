package dev.mailrun.campaign.send;


/**
 * The campaign's counters as checkpointed in its task's metadata, always in the same transaction
 * as the recipient rows they count.
 */
public record Progress(long campaignId, long sent, long failed, long retried, long released, long suppressed,
                       long hardBounces, String recent, long rateBaseAttempts, long rateBaseHardBounces) {

    public static Progress start(long campaignId) {
        return new Progress(campaignId, 0, 0, 0, 0, 0, 0, "", 0, 0);
    }

    Progress plus(long sent, long failed, long retried, long released, long suppressed, long hardBounces, String recent) {
        return new Progress(campaignId, this.sent + sent, this.failed + failed, this.retried + retried,
                this.released + released, this.suppressed + suppressed, this.hardBounces + hardBounces, recent,
                rateBaseAttempts, rateBaseHardBounces);
    }

    /** Attempts and hard bounces since the bounce rate was last reset (on resume after a bounce pause). */
    long attemptsForRate() {
        return sent + failed - rateBaseAttempts;
    }

    long hardBouncesForRate() {
        return hardBounces - rateBaseHardBounces;
    }

    Progress withRecent(String value) {
        return new Progress(campaignId, sent, failed, retried, released, suppressed, hardBounces, value,
                rateBaseAttempts, rateBaseHardBounces);
    }

    /** Starts the hard-bounce rate afresh from here. */
    Progress rebased() {
        return new Progress(campaignId, sent, failed, retried, released, suppressed, hardBounces, recent,
                sent + failed, hardBounces);
    }
}
