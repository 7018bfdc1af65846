package dev.mailrun.campaign.bounce;

/**
 * What bounces do ({@code bounce.*}).
 *
 * @param softLimit  soft bounces (counted once per send) after which an address is suppressed
 * @param pauseRate  hard-bounce rate above which a running campaign is paused, e.g. 0.05 for 5 %
 * @param minSample  sends a campaign needs before its rate is judged, so three early bounces
 *                   out of ten sends do not pause it
 * @param complaintPauseRate complaint rate above which a running campaign is paused, e.g. 0.003 for
 *                   0.3 %: mailbox providers start filtering a sender at about 0.3 % of complaints
 */
public record BounceSettings(int softLimit, double pauseRate, int minSample, double complaintPauseRate) {

    static final int DEFAULT_SOFT_LIMIT = 3;
    static final double DEFAULT_PAUSE_RATE = 0.05;
    static final int DEFAULT_MIN_SAMPLE = 100;
    static final double DEFAULT_COMPLAINT_PAUSE_RATE = 0.003;

    /** With the default complaint threshold. */
    BounceSettings(int softLimit, double pauseRate, int minSample) {
        this(softLimit, pauseRate, minSample, DEFAULT_COMPLAINT_PAUSE_RATE);
    }

    public BounceSettings {
        if (softLimit < 1) {
            throw new IllegalArgumentException("bounce.soft-limit must be at least 1, was " + softLimit);
        }
        if (!(pauseRate > 0 && pauseRate < 1)) {
            throw new IllegalArgumentException("bounce.pause-rate must be between 0 and 1 (0.05 is 5%), was " + pauseRate);
        }
        if (minSample < 1) {
            throw new IllegalArgumentException("bounce.min-sample must be at least 1, was " + minSample);
        }
        if (!(complaintPauseRate > 0 && complaintPauseRate < 1)) {
            throw new IllegalArgumentException("bounce.complaint-pause-rate must be between 0 and 1 (0.003 is 0.3%), was "
                    + complaintPauseRate);
        }
    }

    static BounceSettings defaults() {
        return new BounceSettings(DEFAULT_SOFT_LIMIT, DEFAULT_PAUSE_RATE, DEFAULT_MIN_SAMPLE);
    }
}
