package dev.mailrun.scheduler;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The numbers a handler reports about its run, stored in {@code task_run}.
 *
 * @param batches     batches the run processed
 * @param items       items the run processed (e.g. recipients)
 * @param utilisation share of the run's time budget used, {@code null} when not measured
 * @param overrun     how far the run went past its deadline; zero when it did not
 * @param summary     short free-form counts for the operator (e.g. {@code sent}, {@code failed})
 */
public record RunReport(long batches, long items, Double utilisation, Duration overrun, Map<String, Object> summary) {

    public RunReport {
        if (batches < 0 || items < 0) {
            throw new IllegalArgumentException("batches and items cannot be negative: " + batches + ", " + items);
        }
        if (utilisation != null && (utilisation.isNaN() || utilisation < 0)) {
            throw new IllegalArgumentException("utilisation must be a number >= 0, was " + utilisation);
        }
        Objects.requireNonNull(overrun, "overrun");
        if (overrun.isNegative()) {
            throw new IllegalArgumentException("overrun cannot be negative: " + overrun);
        }
        summary = Map.copyOf(Objects.requireNonNull(summary, "summary"));
    }

    public static RunReport empty() {
        return new RunReport(0, 0, null, Duration.ZERO, Map.of());
    }

    public static RunReport of(long batches, long items, double utilisation, Duration overrun) {
        return new RunReport(batches, items, utilisation, overrun, Map.of());
    }

    public RunReport withSummary(String key, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(summary);
        copy.put(key, value);
        return new RunReport(batches, items, utilisation, overrun, copy);
    }
}
