package dev.mailrun.campaign.send.deliver.violation;

import dev.mailrun.mail.smtp.SendRateLimiter;

/**
 * Breaks the rate rule on purpose, for SendStagesTest: a delivery-side class that sets a limiter's
 * rate itself instead of leaving it to the pace. It lives in the test sources, so the rule checked
 * on the main classes never sees it.
 */
public final class DeliverySettingARate {

    private DeliverySettingARate() {
    }

    public static void slowDown(SendRateLimiter limiter) {
        limiter.setRate(1);
    }
}
