package dev.mailrun.campaign.send.scope;

/**
 * When hard bounces pause a campaign: more than {@code pauseRate} of its attempts bounced hard, once
 * it has at least {@code minSample} attempts ({@code bounce.pause-rate}, {@code bounce.min-sample}).
 */
public record HardBounceRule(double pauseRate, int minSample) {

    public HardBounceRule {
        if (!(pauseRate > 0 && pauseRate <= 1) || minSample < 1) {
            throw new IllegalArgumentException("bounce.pause-rate must be above 0 and at most 1 and bounce.min-sample at least 1");
        }
    }
}
