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

/** A handler that returns normally may say its run was idle or blocked; the scheduler records that, not a success. */
class HandlerOutcomeTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");
    private static final Duration FIVE_MIN = Duration.ofMinutes(5);

    private final SettableClock clock = new SettableClock(TEN);
    private final TaskStore store = new TaskStore(db.dataSource());
    private final List<RunListener.FinishedRun> finished = new ArrayList<>();

    @BeforeEach
    void startWithNoTasks() throws Exception {
        Fixtures.deleteAllTasks(db.dataSource());
    }

    private Scheduler scheduler(TaskHandler handler) {
        return new Scheduler(db.dataSource(), HandlerRegistry.of(handler), config("w1"), clock, new RunListener() {
            @Override
            public void runFinished(FinishedRun run) {
                finished.add(run);
            }
        });
    }

    @Test
    void a_blocked_run_is_recorded_blocked_told_as_blocked_and_scheduled_for_the_next_slot_without_backoff() throws Exception {
        store.create(NewTask.of("relays", "blocked", FIVE_MIN, TEN));
        try (Scheduler s = scheduler(handler("blocked", ctx -> {
            ctx.metadata().put("seen", 1);
            ctx.blocked();
        }))) {
            TickSummary tick = s.tick();

            assertThat(tick.count(RunOutcome.BLOCKED)).isEqualTo(1);
            assertThat(tick.runs()).isEqualTo(1);
            assertThat(history(db.dataSource(), "relays")).extracting(TaskRun::outcome).containsExactly(RunOutcome.BLOCKED);
            assertThat(finished).extracting(RunListener.FinishedRun::outcome).containsExactly(RunOutcome.BLOCKED);
            Task after = task(db.dataSource(), "relays");
            assertThat(after.nextRunAt()).isEqualTo(TEN.plus(FIVE_MIN));
            assertThat(after.consecutiveFailures()).isZero();
            assertThat(after.metadata().getLong("seen")).hasValue(1);
            assertThat(store.lastOutcomes()).containsEntry("relays", RunOutcome.BLOCKED);
        }
    }

    @Test
    void idle_runs_are_recorded_idle_and_left_out_of_the_tasks_recent_work_but_not_of_its_history() throws Exception {
        store.create(NewTask.of("paused", "maybe-idle", FIVE_MIN, TEN));
        boolean[] idle = {false};
        try (Scheduler s = scheduler(handler("maybe-idle", ctx -> {
            if (idle[0]) {
                ctx.idle();
            }
        }))) {
            s.tick();
            idle[0] = true;
            for (int i = 1; i <= 12; i++) {
                clock.set(TEN.plus(FIVE_MIN.multipliedBy(i)));
                assertThat(s.tick().count(RunOutcome.IDLE)).isEqualTo(1);
            }
        }

        assertThat(store.recentRuns("paused", 20)).hasSize(13).first().extracting(TaskRun::outcome).isEqualTo(RunOutcome.IDLE);
        assertThat(store.recentWork("paused", 10)).extracting(TaskRun::outcome).containsExactly(RunOutcome.SUCCEEDED);
        assertThat(task(db.dataSource(), "paused").nextRunAt()).isEqualTo(TEN.plus(FIVE_MIN.multipliedBy(13)));
        assertThat(finished).extracting(RunListener.FinishedRun::outcome).last().isEqualTo(RunOutcome.IDLE);
    }

    @Test
    void a_handler_that_says_blocked_and_then_throws_has_failed() throws Exception {
        store.create(NewTask.of("both", "throws", FIVE_MIN, TEN));
        try (Scheduler s = scheduler(handler("throws", ctx -> {
            ctx.blocked();
            throw new IllegalStateException("broken");
        }))) {
            assertThat(s.tick().count(RunOutcome.FAILED)).isEqualTo(1);
        }
        assertThat(task(db.dataSource(), "both").consecutiveFailures()).isEqualTo(1);
    }
}
