package dev.mailrun.metrics;

import dev.mailrun.scheduler.RunListener;
import dev.mailrun.scheduler.RunOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The scheduler's runs as meters: runs by outcome, duration, utilisation, overruns, last success. */
final class RunMeters implements RunListener {

    /** Histogram buckets from a second to a day: a run lasts at most its tick interval (1 s–1 d). */
    private static final Duration[] DURATION_BUCKETS = Stream.of("PT1S", "PT5S", "PT15S", "PT30S", "PT1M", "PT2M",
            "PT5M", "PT10M", "PT30M", "PT1H", "PT6H", "PT24H").map(Duration::parse).toArray(Duration[]::new);

    private final MeterRegistry registry;
    private final Map<String, AtomicLong> lastSuccessMillis = new ConcurrentHashMap<>();

    RunMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void runFinished(FinishedRun run) {
        count(run.task(), run.outcome());
        Timer.builder("mailrun.run.duration").description("How long runs took, from claim to finish")
                .tag("task", run.task()).serviceLevelObjectives(DURATION_BUCKETS).register(registry).record(run.duration());
        if (run.report().utilisation() != null) {
            DistributionSummary.builder("mailrun.run.utilisation").description("Share of its time budget a run used")
                    .tag("task", run.task()).register(registry).record(run.report().utilisation());
        }
        Counter overruns = Counter.builder("mailrun.run.overruns").description("Runs that finished after their deadline")
                .tag("task", run.task()).register(registry);
        Counter overrunSeconds = Counter.builder("mailrun.run.overrun").baseUnit("seconds")
                .description("Time runs spent past their deadline").tag("task", run.task()).register(registry);
        if (!run.overrun().isZero()) {
            overruns.increment();
            overrunSeconds.increment(run.overrun().toNanos() / 1e9);
        }
        if (run.outcome() == RunOutcome.SUCCEEDED) {
            lastSuccessMillis.computeIfAbsent(run.task(), task -> {
                AtomicLong millis = new AtomicLong();
                Gauge.builder("mailrun.last.run.success.timestamp", millis, m -> m.get() / 1000.0).baseUnit("seconds")
                        .description("When the task's last successful run finished (unix time)").tag("task", task)
                        .register(registry);
                return millis;
            }).set(run.finishedAt().toEpochMilli());
        }
    }

    @Override
    public void decision(String task, RunOutcome outcome) {
        count(task, outcome);
    }

    private void count(String task, RunOutcome outcome) {
        Counter.builder("mailrun.runs").description("Rows of task_run: runs by outcome and decisions not to run")
                .tag("task", task).tag("outcome", outcome.dbValue()).register(registry).increment();
    }
}
