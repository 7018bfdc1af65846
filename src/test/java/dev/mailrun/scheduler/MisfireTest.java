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

class MisfireTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");
    private static final Duration FIVE_MIN = Duration.ofMinutes(5);

    private final SettableClock clock = new SettableClock(TEN);
    private final List<Instant> slotsRun = new ArrayList<>();
    private Scheduler scheduler;

    @BeforeEach
    void setUp() throws Exception {
        Fixtures.deleteAllTasks(db.dataSource());
        scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(handler("job", ctx -> slotsRun.add(ctx.scheduledFor()))),
                config("misfire-worker"), clock);
    }

    @Test
    void a_worker_down_for_an_hour_runs_a_fire_once_now_task_exactly_once_on_return() throws Exception {
        new TaskStore(db.dataSource()).create(NewTask.of("report", "job", FIVE_MIN, TEN));
        scheduler.tick();
        clock.set(TEN.plus(Duration.ofMinutes(65)));

        TickSummary onReturn = scheduler.tick();
        TickSummary sameSlotAgain = scheduler.tick();

        assertThat(onReturn.runs()).isEqualTo(1);
        assertThat(sameSlotAgain.entries()).isEmpty();
        assertThat(slotsRun).containsExactly(TEN, TEN.plus(Duration.ofMinutes(65)));
        assertThat(task(db.dataSource(), "report").nextRunAt()).isEqualTo(TEN.plus(Duration.ofMinutes(70)));
        List<TaskRun> misfires = history(db.dataSource(), "report", RunOutcome.MISFIRED);
        assertThat(misfires).hasSize(1);
        assertThat(misfires.get(0).summary().orElseThrow().get("missedSlots").asLong()).isEqualTo(12);
        assertThat(misfires.get(0).scheduledFor()).hasValue(TEN.plus(FIVE_MIN));
    }

    @Test
    void a_worker_down_for_an_hour_runs_a_skip_to_next_slot_task_only_at_the_next_aligned_slot() throws Exception {
        new TaskStore(db.dataSource()).create(NewTask.of("digest", "job", FIVE_MIN, TEN)
                .withMisfirePolicy(MisfirePolicy.SKIP_TO_NEXT_SLOT));
        scheduler.tick();
        clock.set(TEN.plus(Duration.ofMinutes(65)));

        TickSummary onReturn = scheduler.tick();
        clock.advance(Duration.ofMinutes(4));
        TickSummary beforeNextSlot = scheduler.tick();
        clock.set(TEN.plus(Duration.ofMinutes(70)));
        TickSummary atNextSlot = scheduler.tick();

        assertThat(onReturn.runs()).isZero();
        assertThat(onReturn.count(RunOutcome.MISFIRED)).isEqualTo(1);
        assertThat(beforeNextSlot.entries()).isEmpty();
        assertThat(atNextSlot.runs()).isEqualTo(1);
        assertThat(slotsRun).containsExactly(TEN, TEN.plus(Duration.ofMinutes(70)));
        List<TaskRun> misfires = history(db.dataSource(), "digest", RunOutcome.MISFIRED);
        assertThat(misfires).hasSize(1);
        assertThat(misfires.get(0).summary().orElseThrow().get("missedSlots").asLong()).isEqualTo(13);
        assertThat(task(db.dataSource(), "digest").lastStartedAt())
                .hasValue(history(db.dataSource(), "digest", RunOutcome.SUCCEEDED).get(1).startedAt());
    }

    @Test
    void lateness_below_the_threshold_is_not_a_misfire_and_keeps_the_slot_grid() throws Exception {
        new TaskStore(db.dataSource()).create(NewTask.of("late", "job", FIVE_MIN, TEN));
        clock.set(TEN.plus(Duration.ofMinutes(4)));

        scheduler.tick();

        assertThat(slotsRun).containsExactly(TEN);
        assertThat(history(db.dataSource(), "late", RunOutcome.MISFIRED)).isEmpty();
        assertThat(task(db.dataSource(), "late").nextRunAt()).isEqualTo(TEN.plus(FIVE_MIN));
    }

    @Test
    void a_run_longer_than_its_interval_does_not_make_the_next_start_drift() throws Exception {
        new TaskStore(db.dataSource()).create(NewTask.of("slow", "job", FIVE_MIN, TEN));
        scheduler.tick();
        clock.set(TEN.plus(Duration.ofMinutes(7)));
        scheduler.tick();
        assertThat(slotsRun).containsExactly(TEN, TEN.plus(FIVE_MIN));
        assertThat(task(db.dataSource(), "slow").nextRunAt()).isEqualTo(TEN.plus(Duration.ofMinutes(10)));
    }

    @Test
    void a_task_scheduled_into_a_slot_that_has_begun_runs_at_the_next_boundary_without_a_misfire() throws Exception {
        TaskStore store = new TaskStore(db.dataSource());
        store.create(NewTask.of("started", "job", FIVE_MIN, TEN));
        clock.set(TEN.plus(Duration.ofMinutes(2)));
        store.scheduleFrom("started", TEN, clock.instant()); // a campaign started at 10:02 into the 10:00 slot
        clock.set(TEN.plus(FIVE_MIN).plusMillis(40)); // a running worker's next tick, at the boundary

        TickSummary atBoundary = scheduler.tick();

        assertThat(atBoundary.runs()).isEqualTo(1);
        assertThat(atBoundary.count(RunOutcome.MISFIRED)).isZero();
        assertThat(slotsRun).containsExactly(TEN.plus(FIVE_MIN));
        assertThat(history(db.dataSource(), "started", RunOutcome.MISFIRED)).isEmpty();
        assertThat(task(db.dataSource(), "started").nextRunAt()).isEqualTo(TEN.plus(Duration.ofMinutes(10)));
    }

    @Test
    void a_tick_within_the_slot_it_was_scheduled_into_runs_that_slot_and_slots_passed_over_later_are_missed()
            throws Exception {
        TaskStore store = new TaskStore(db.dataSource());
        store.create(NewTask.of("cron", "job", FIVE_MIN, TEN));
        clock.set(TEN.plus(Duration.ofMinutes(2)));
        store.scheduleFrom("cron", TEN, clock.instant());
        clock.set(TEN.plus(Duration.ofMinutes(3)));
        scheduler.tick(); // mailrun tick from cron, within the slot
        clock.set(TEN.plus(Duration.ofMinutes(15)).plusMillis(40)); // the 10:05 and 10:10 slots passed over

        scheduler.tick();

        assertThat(slotsRun).containsExactly(TEN, TEN.plus(Duration.ofMinutes(15)));
        List<TaskRun> misfires = history(db.dataSource(), "cron", RunOutcome.MISFIRED);
        assertThat(misfires).hasSize(1);
        assertThat(misfires.get(0).summary().orElseThrow().get("missedSlots").asLong()).isEqualTo(2);
    }

    @Test
    void slots_passed_over_after_the_one_a_task_was_scheduled_into_still_count_as_missed() throws Exception {
        TaskStore store = new TaskStore(db.dataSource());
        store.create(NewTask.of("down", "job", FIVE_MIN, TEN));
        clock.set(TEN.plus(Duration.ofMinutes(2)));
        store.scheduleFrom("down", TEN, clock.instant());
        clock.set(TEN.plus(Duration.ofMinutes(20)).plusMillis(40)); // worker down over 10:05, 10:10, 10:15

        scheduler.tick();

        assertThat(slotsRun).containsExactly(TEN.plus(Duration.ofMinutes(20)));
        List<TaskRun> misfires = history(db.dataSource(), "down", RunOutcome.MISFIRED);
        assertThat(misfires).hasSize(1);
        assertThat(misfires.get(0).summary().orElseThrow().get("missedSlots").asLong()).isEqualTo(3);
        assertThat(misfires.get(0).summary().orElseThrow().get("firstMissed").asText())
                .isEqualTo(TEN.plus(FIVE_MIN).toString());
    }

    @Test
    void a_tick_one_second_before_its_slot_ends_runs_nothing_and_the_next_slot_runs_on_time() throws Exception {
        new TaskStore(db.dataSource()).create(NewTask.of("short", "job", FIVE_MIN, TEN));
        clock.set(TEN.plus(FIVE_MIN).minusSeconds(1));

        TickSummary tooLate = scheduler.tick();
        clock.set(TEN.plus(FIVE_MIN).plusMillis(40));
        TickSummary next = scheduler.tick();

        assertThat(tooLate.runs()).isZero();
        assertThat(tooLate.count(RunOutcome.MISFIRED)).isEqualTo(1);
        assertThat(next.runs()).isEqualTo(1);
        assertThat(next.count(RunOutcome.MISFIRED)).isZero();
        assertThat(slotsRun).containsExactly(TEN.plus(FIVE_MIN));
        List<TaskRun> misfires = history(db.dataSource(), "short", RunOutcome.MISFIRED);
        assertThat(misfires).hasSize(1);
        assertThat(misfires.get(0).summary().orElseThrow().get("missedSlots").asLong()).isEqualTo(1);
        assertThat(task(db.dataSource(), "short").nextRunAt()).isEqualTo(TEN.plus(Duration.ofMinutes(10)));
    }
}
