package dev.mailrun.scheduler;

import static dev.mailrun.scheduler.Fixtures.config;
import static dev.mailrun.scheduler.Fixtures.handler;
import static dev.mailrun.scheduler.Fixtures.history;
import static dev.mailrun.scheduler.Fixtures.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The safety margin is derived from what runs of the task measured, on the scheduler's clock: each
 * handler here uses its window up to the deadline and "releases" a set time after it (it moves the
 * clock there), and each tick fires a set time after its slot.
 */
class DerivedMarginTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");
    private static final Duration FIVE_MIN = Duration.ofMinutes(5);
    /** The default bound: 10% of five minutes. */
    private static final Duration CAP = Duration.ofSeconds(30);

    private final SettableClock clock = new SettableClock(TEN);
    private final TaskStore store = new TaskStore(db.dataSource());
    private final List<Instant> deadlines = new ArrayList<>();

    @BeforeEach
    void startWithNoTasks() throws Exception {
        Fixtures.deleteAllTasks(db.dataSource());
    }

    /** A handler that runs to its deadline and releases {@code release} after it. */
    private Scheduler scheduler(Duration release) {
        return scheduler(release, config("margin-worker"));
    }

    private Scheduler scheduler(Duration release, SchedulerConfig config) {
        return new Scheduler(db.dataSource(), HandlerRegistry.of(handler("fill", ctx -> {
            deadlines.add(ctx.deadline());
            clock.set(ctx.deadline().plus(release));
        })), config, clock);
    }

    /** Ticks {@code runs} slots, each {@code late} after its slot. */
    private void tickSlots(Scheduler s, int runs, Duration late) throws Exception {
        Instant slot = task(db.dataSource(), "fill").nextRunAt();
        for (int i = 0; i < runs; i++) {
            clock.set(slot.plus(late));
            assertThat(s.tick().runs()).isEqualTo(1);
            slot = slot.plus(FIVE_MIN);
        }
    }

    private Duration marginOf(int run) {
        Instant deadline = deadlines.get(run);
        Instant slot = TEN.plus(FIVE_MIN.multipliedBy(run));
        return Duration.between(deadline, slot.plus(FIVE_MIN));
    }

    @Test
    void a_task_without_measurements_gets_the_configured_margin_then_one_derived_from_its_samples() throws Exception {
        store.create(NewTask.of("fill", "fill", FIVE_MIN, TEN));
        try (Scheduler s = scheduler(Duration.ofMillis(300))) {
            tickSlots(s, 5, Duration.ofMillis(40));
        }
        // Run 1 measures its release, run 2 pairs it with its own lateness: from run 2 on, samples.
        assertThat(marginOf(0)).isEqualTo(CAP);
        assertThat(marginOf(1)).isEqualTo(Duration.ofMillis(340));
        assertThat(marginOf(2)).isEqualTo(Duration.ofMillis(340));
        assertThat(marginOf(3)).isEqualTo(Duration.ofMillis(340));
        assertThat(marginOf(4)).isEqualTo(Duration.ofMillis(340));
        Metadata stored = task(db.dataSource(), "fill").metadata();
        assertThat(stored.json().at("/margin/lateMs").toString()).isEqualTo("[40,40,40,40]");
        assertThat(stored.json().at("/margin/releaseMs").toString()).isEqualTo("[300,300,300,300]");
        List<TaskRun> runs = history(db.dataSource(), "fill");
        assertThat(runs).extracting(r -> r.margin().orElseThrow())
                .containsExactly(CAP, Duration.ofMillis(340), Duration.ofMillis(340), Duration.ofMillis(340),
                        Duration.ofMillis(340));
        assertThat(runs).allSatisfy(r -> assertThat(r.waited()).hasValue(Duration.ZERO));
        assertThat(runs.get(0).gap()).as("no run before the first").isEmpty();
        assertThat(runs.subList(1, 5)).allSatisfy(r -> assertThat(r.gap()).isPresent());
    }

    @Test
    void when_the_next_tick_waits_for_a_late_release_the_first_run_keeps_half_a_second_not_the_bound() throws Exception {
        store.create(NewTask.of("fill", "fill", FIVE_MIN, TEN));
        SchedulerConfig waiting = config("margin-worker").withOverlapWait(Duration.ofSeconds(5));
        try (Scheduler s = scheduler(Duration.ofMillis(300), waiting)) {
            tickSlots(s, 3, Duration.ofMillis(40));
        }
        assertThat(marginOf(0)).isEqualTo(Duration.ofMillis(500));
        assertThat(marginOf(1)).as("then the samples decide").isEqualTo(Duration.ofMillis(340));
        assertThat(history(db.dataSource(), "fill")).extracting(TaskRun::outcome).containsOnly(RunOutcome.SUCCEEDED);
    }

    @Test
    void a_steady_fast_worker_gets_the_floor() throws Exception {
        store.create(NewTask.of("fill", "fill", FIVE_MIN, TEN));
        try (Scheduler s = scheduler(Duration.ofMillis(20))) {
            tickSlots(s, 5, Duration.ofMillis(5));
        }
        assertThat(marginOf(4)).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void a_worker_whose_release_is_slow_or_noisy_gets_a_larger_margin_by_itself() throws Exception {
        store.create(NewTask.of("fill", "fill", FIVE_MIN, TEN));
        try (Scheduler s = scheduler(Duration.ofMillis(300))) {
            tickSlots(s, 6, Duration.ofMillis(40));
        }
        try (Scheduler slow = scheduler(Duration.ofSeconds(4))) {
            // A new scheduler knows no release yet: its first run adds no sample, its releases pair with its next claims.
            tickSlots(slow, 3, Duration.ofMillis(40));
        }
        // Samples now: five of 340 ms, two of 4040 ms: 95th percentile 4040, median 340, spread 3700.
        assertThat(marginOf(8)).isEqualTo(Duration.ofMillis(4040 + 3700));
        // With one slow sample among six the high percentile is already the slow one.
        assertThat(marginOf(7)).isEqualTo(Duration.ofMillis(4040 + 3700));
    }

    @Test
    void the_margin_never_exceeds_the_configured_bound() throws Exception {
        store.create(NewTask.of("fill", "fill", FIVE_MIN, TEN));
        try (Scheduler s = scheduler(Duration.ofSeconds(45))) {
            tickSlots(s, 5, Duration.ofMillis(40));
        }
        assertThat(List.of(marginOf(3), marginOf(4))).containsOnly(CAP);
    }

    @Test
    void runs_after_missed_slots_add_no_lateness_sample() throws Exception {
        store.create(NewTask.of("fill", "fill", FIVE_MIN, TEN));
        try (Scheduler s = scheduler(Duration.ofMillis(300))) {
            tickSlots(s, 4, Duration.ofMillis(40));
            // The worker was down for three slots: the next run is a misfire, its lateness is downtime.
            Instant next = task(db.dataSource(), "fill").nextRunAt();
            clock.set(next.plus(FIVE_MIN.multipliedBy(3)).plusMillis(40));
            s.tick();
        }
        Metadata stored = task(db.dataSource(), "fill").metadata();
        assertThat(stored.json().at("/margin/lateMs").toString()).isEqualTo("[40,40,40]");
    }
}
