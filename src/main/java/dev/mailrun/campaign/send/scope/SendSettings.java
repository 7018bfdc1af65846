package dev.mailrun.campaign.send.scope;

import dev.mailrun.campaign.model.DomainGroups;
import dev.mailrun.campaign.send.policy.DailyCap;
import java.time.Duration;

/**
 * How the sending task behaves; validated once, at start. Built only through its canonical
 * constructor, by the configuration ({@code app/config}); tests build theirs with
 * {@code dev.mailrun.testing.SendSettingsFixtures}.
 *
 * @param batchMax           largest batch claimed at once
 * @param maxAttempts        attempts before a transient failure becomes permanent
 * @param retryBase          first retry delay; doubles per attempt, with ±20% jitter
 * @param failureRule        when failures pause a campaign
 * @param flush              how often results are written
 * @param batchOverhead      expected cost of one claim + commit; kept free before the deadline
 * @param hardBounceRule     when hard bounces pause a campaign
 * @param dailyCap           how many messages each relay may take per day ({@link DailyCap#NONE}: no limit)
 * @param domainGroups       recipient domains paced together (by the pace)
 */
public record SendSettings(int batchMax, int maxAttempts, Duration retryBase,
                           FailureRule failureRule, FlushCadence flush, Duration batchOverhead,
                           HardBounceRule hardBounceRule, DailyCap dailyCap, DomainGroups domainGroups) {

    /**
     * The batch overhead of the sending task. A batch's claim is made while the batch before it
     * sends (claimed ahead) and its results are committed by the flush thread, so a batch spends
     * little beyond its messages; the run's own final work after the last batch is measured and
     * reserved by the timebox ({@link dev.mailrun.timebox.RunCosts}). 200 ms, the cost of an inline
     * claim and commit, left every run's last 0.2–0.4 s unused.
     */
    public static final Duration BATCH_OVERHEAD = Duration.ofMillis(50);

    public SendSettings {
        if (batchMax < 1 || batchMax > 10_000) {
            throw new IllegalArgumentException("send.batch-max must be between 1 and 10000, got " + batchMax);
        }
        if (maxAttempts < 1 || maxAttempts > 100) {
            throw new IllegalArgumentException("send.max-attempts must be between 1 and 100, got " + maxAttempts);
        }
        if (retryBase.isNegative() || retryBase.isZero()) {
            throw new IllegalArgumentException("send.retry-base must be positive, got " + retryBase);
        }
        java.util.Objects.requireNonNull(failureRule, "failureRule");
        java.util.Objects.requireNonNull(flush, "flush");
        if (batchOverhead.isNegative()) {
            throw new IllegalArgumentException("batch overhead must not be negative, got " + batchOverhead);
        }
        java.util.Objects.requireNonNull(hardBounceRule, "hardBounceRule");
        java.util.Objects.requireNonNull(domainGroups, "domainGroups");
        if (dailyCap == null) {
            throw new IllegalArgumentException("dailyCap must not be null (DailyCap.NONE: no limit)");
        }
    }
}
