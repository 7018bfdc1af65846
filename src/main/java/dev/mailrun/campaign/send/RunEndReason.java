package dev.mailrun.campaign.send;

import dev.mailrun.timebox.EndReason;
import java.util.Optional;

/**
 * Why a sending run ended, as its summary ({@code end}, and {@code why} where a reason needs one)
 * and its log line say it. The timebox knows only how its loop ended; the run knows what stopped
 * it, so the first of these that holds names the end:
 * <ol>
 *   <li>{@code completed} — nobody is left to send to: the campaign completed;</li>
 *   <li>{@code lease_lost} — another run took the task over;</li>
 *   <li>{@code paused} — this run paused the campaign (a fatal SMTP error, the failure or bounce rate);</li>
 *   <li>{@code daily_cap} — the day's volume of every relay of the route is used up;</li>
 *   <li>{@code relays_down} — every relay of the route is down and none can be probed now; why: each
 *       relay, until when, and why it is down;</li>
 *   <li>{@code marking_failed} — a recipient could not be marked in flight (the database or the lease);</li>
 *   <li>{@code stop_requested} — the worker is shutting down;</li>
 *   <li>{@code campaign_paused}, {@code campaign_cancelled}, … — the operator changed the campaign's
 *       state during the run;</li>
 *   <li>{@code deadline} — the next batch would not fit before the run's deadline;</li>
 *   <li>{@code no_progress} — a batch tried nothing although time was left; why: what it had and
 *       what held it;</li>
 *   <li>{@code nothing_due} — the queue had nobody due now: what is left waits for a retry later.</li>
 * </ol>
 * A run that sent the last of an A/B test's share ends {@code ab_decision} instead of
 * {@code nothing_due} ({@link AbRun#afterTestShare}), as does every run while the decision waits.
 */
record RunEndReason(String name, Optional<String> why) {

    /** A run that found the daily cap of every relay of its route used up. */
    static final String DAILY_CAP = "daily_cap";
    /** A run that found every relay of its route down, with none to probe now. */
    static final String RELAYS_DOWN = "relays_down";


    /** What the run knew when it ended. */
    record Facts(EndReason timebox, boolean completed, boolean leaseLost, boolean paused, boolean dailyCap,
                 Optional<String> relaysDown, boolean markingFailed, boolean shutdown,
                 Optional<String> campaignStatus, Optional<String> lastEmptyBatch) {}

    static RunEndReason of(Facts f) {
        if (f.completed()) {
            return plain("completed");
        }
        if (f.leaseLost()) {
            return plain("lease_lost");
        }
        if (f.paused()) {
            return plain("paused");
        }
        if (f.dailyCap()) {
            return plain(DAILY_CAP);
        }
        if (f.relaysDown().isPresent()) {
            return new RunEndReason(RELAYS_DOWN, f.relaysDown());
        }
        if (f.markingFailed()) {
            return new RunEndReason("marking_failed",
                    Optional.of("a recipient could not be marked in flight (the database or the task's lease is gone)"));
        }
        if (f.shutdown()) {
            return plain("stop_requested");
        }
        Optional<String> notRunning = f.campaignStatus().filter(s -> !s.equals("running"));
        if (notRunning.isPresent()) {
            return plain("campaign_" + notRunning.get());
        }
        return switch (f.timebox()) {
            case DEADLINE -> plain("deadline");
            case NO_PROGRESS -> new RunEndReason("no_progress",
                    Optional.of(f.lastEmptyBatch().orElse("a batch tried nothing although time was left")));
            case OPERATOR_DONE -> new RunEndReason("nothing_due",
                    Optional.of("nobody is due now: the recipients left wait for retries due later"));
            // Stopped by the run's own check, or failed: the cases above name why; otherwise say so plainly.
            case STOP_REQUESTED -> plain("stopped");
            case OPERATOR_FAILED -> plain("failed");
        };
    }

    private static RunEndReason plain(String name) {
        return new RunEndReason(name, Optional.empty());
    }
}
