package dev.mailrun.campaign.send.record;

import dev.mailrun.campaign.send.scope.SendCounters;
import dev.mailrun.campaign.send.scope.SendSettings;
import java.util.Locale;
import java.util.Optional;

/**
 * When a campaign pauses itself: too many of its recent attempts failed
 * ({@code send.pause-on-failure-rate} over {@code send.failure-window}), or its hard bounces refused
 * at SMTP time passed their share of its attempts ({@code bounce.pause-rate}, once there are
 * {@code bounce.min-sample} attempts) — counted like bounces read back later.
 */
public final class PauseRules {

    private final SendSettings settings;

    public PauseRules(SendSettings settings) {
        this.settings = settings;
    }

    /**
     * The failure window a run starts from. A run only sends for a running campaign: if the stored
     * window is over the limit, the campaign was paused for it and an operator has since resumed
     * it, so a fresh window starts, or it would pause again before a single new attempt.
     */
    public FailureWindow windowAtStart(SendCounters stored) {
        FailureWindow window = new FailureWindow(settings.failureRule().window(), stored.recent());
        return failureRateExceeded(window) ? new FailureWindow(settings.failureRule().window(), "") : window;
    }

    /** The same for the hard-bounce rate: counted again from the resume on. */
    public SendCounters countersAtStart(SendCounters stored) {
        return hardBounceRateExceeded(stored).isPresent() ? stored.rebased() : stored;
    }

    /** Why the campaign must pause now, if it must, given its failure window and its counters. */
    Optional<String> reasonToPause(FailureWindow window, SendCounters counters) {
        if (failureRateExceeded(window)) {
            return Optional.of(String.format(Locale.ROOT, "%.1f%% of the last %d attempts failed (limit %.1f%%)",
                    window.failureRate() * 100, window.attempts(), settings.failureRule().pauseRate() * 100));
        }
        return hardBounceRateExceeded(counters);
    }

    private boolean failureRateExceeded(FailureWindow window) {
        return window.isFull() && window.failureRate() > settings.failureRule().pauseRate();
    }

    private Optional<String> hardBounceRateExceeded(SendCounters counters) {
        long attempts = counters.attemptsForRate();
        if (attempts < settings.hardBounceRule().minSample() || attempts == 0) {
            return Optional.empty();
        }
        double rate = (double) counters.hardBouncesForRate() / attempts;
        return rate > settings.hardBounceRule().pauseRate() ? Optional.of(String.format(Locale.ROOT,
                "hard-bounce rate %.1f%% over %d sends exceeds %.1f%%", rate * 100, attempts,
                settings.hardBounceRule().pauseRate() * 100)) : Optional.empty();
    }
}
