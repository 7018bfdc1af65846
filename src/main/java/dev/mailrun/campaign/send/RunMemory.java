package dev.mailrun.campaign.send;

/**
 * What one run of a campaign leaves in its task's metadata for the next: the timebox's estimator,
 * so the next run starts calibrated, and the run's start-up and shutdown costs.
 */
final class RunMemory {

    static final String TIMEBOX_KEY = "timebox";
    /** The run's start-up and shutdown costs ({@link dev.mailrun.timebox.RunCosts}), learned from run to run. */
    static final String COSTS_KEY = "runCosts";

    /** Each relay's measured time per message (relay name → milliseconds), so the next run's pools start sized. */
    static final String CONNECTIONS_KEY = "messageMillis";

    private RunMemory() {
    }

    /** The relays' times per message the last run left; empty for a first run. */
    static java.util.Map<String, java.time.Duration> perMessage(dev.mailrun.scheduler.RunContext ctx) {
        java.util.Map<String, java.time.Duration> times = new java.util.LinkedHashMap<>();
        ctx.metadata().get(CONNECTIONS_KEY, java.util.Map.class).ifPresent(m -> ((java.util.Map<?, ?>) m).forEach((k, v) -> {
            if (k instanceof String relay && v instanceof Number ms && ms.longValue() > 0) {
                times.put(relay, java.time.Duration.ofMillis(ms.longValue()));
            }
        }));
        return times;
    }

    static void perMessage(dev.mailrun.scheduler.RunContext ctx, java.util.Map<String, java.time.Duration> times) {
        if (!times.isEmpty()) {
            java.util.Map<String, Long> ms = new java.util.LinkedHashMap<>();
            times.forEach((relay, d) -> ms.put(relay, Math.max(1, d.toMillis())));
            ctx.metadata().putValue(CONNECTIONS_KEY, ms);
        }
    }
}
