package dev.mailrun.campaign.send.scope;

/**
 * When failures pause a campaign: more than {@code pauseRate} of the last {@code window} attempts
 * failed ({@code send.pause-on-failure-rate}, {@code send.failure-window}).
 */
public record FailureRule(double pauseRate, int window) {

    public FailureRule {
        if (!(pauseRate > 0 && pauseRate <= 1)) {
            throw new IllegalArgumentException("send.pause-on-failure-rate must be above 0 and at most 1, got " + pauseRate);
        }
        if (window < 1 || window > 100_000) {
            throw new IllegalArgumentException("send.failure-window must be between 1 and 100000, got " + window);
        }
    }
}
