package dev.mailrun.scheduler;

import static dev.mailrun.scheduler.Fixtures.config;
import static dev.mailrun.scheduler.Fixtures.handler;
import static dev.mailrun.scheduler.Fixtures.history;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import dev.mailrun.timebox.SafetyMargins;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * At a slot, a tick that finds the previous run still releasing the task waits for it, bounded by
 * {@code overlapWait}, on the injected clock: the test's sleeper moves the clock, and lets the
 * previous run finish when the test says so.
 */
class OverlapWaitTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");
    private static final Duration FIVE_MIN = Duration.ofMinutes(5);
    private static final Duration WAIT = Duration.ofSeconds(3);

    private final SettableClock clock = new SettableClock(TEN);
    private final TaskStore store = new TaskStore(db.dataSource());
    private final CountDownLatch running = new CountDownLatch(1);
    private final CountDownLatch letGo = new CountDownLatch(1);
    private final AtomicInteger live = new AtomicInteger();
    private final AtomicInteger maxLive = new AtomicInteger();
    private final AtomicInteger runs = new AtomicInteger();

    @BeforeEach
    void startWithNoTasks() throws Exception {
        Fixtures.deleteAllTasks(db.dataSource());
        store.create(NewTask.of("slow", "slow", FIVE_MIN, TEN));
    }

    /** Counts live runs; the first one holds the task until {@link #letGo}. */
    private TaskHandler slowHandler() {
        return handler("slow", ctx -> {
            maxLive.accumulateAndGet(live.incrementAndGet(), Math::max);
            try {
                if (runs.incrementAndGet() == 1) {
                    running.countDown();
                    letGo.await(30, TimeUnit.SECONDS);
                }
            } finally {
                live.decrementAndGet();
            }
        });
    }

    /** Moves the clock to each wake-up; on its {@code releaseOnCall}-th call first lets the held run finish. */
    private final class TestSleeper implements Sleeper {
        private final int releaseOnCall;
        private final Thread holder;
        int calls;

        TestSleeper(int releaseOnCall, Thread holder) {
            this.releaseOnCall = releaseOnCall;
            this.holder = holder;
        }

        @Override
        public void sleepUntil(Instant wakeAt) throws InterruptedException {
            if (++calls == releaseOnCall) {
                letGo.countDown();
                holder.join(30_000);
            }
            clock.set(wakeAt);
        }

        @Override
        public void wakeUp() {}
    }

    private Thread startHeldRun(Scheduler first) throws InterruptedException {
        Thread t = new Thread(() -> {
            try {
                first.tick();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
        return t;
    }

    private Scheduler second(Sleeper sleeper) {
        return new Scheduler(db.dataSource(), HandlerRegistry.of(slowHandler()),
                config("w2").withOverlapWait(WAIT), clock, RunListener.NONE, sleeper);
    }

    @Test
    void a_tick_at_the_slot_waits_for_the_previous_run_to_release_then_runs_the_slot_and_records_the_wait()
            throws Exception {
        try (Scheduler first = new Scheduler(db.dataSource(), HandlerRegistry.of(slowHandler()), config("w1"), clock)) {
            Thread held = startHeldRun(first);
            clock.set(TEN.plus(FIVE_MIN));
            TestSleeper sleeper = new TestSleeper(4, held);
            try (Scheduler s = second(sleeper)) {
                TickSummary summary = s.tick();

                assertThat(summary.runs()).isEqualTo(1);
            }
            assertThat(sleeper.calls).isEqualTo(4);
        }
        List<TaskRun> rows = history(db.dataSource(), "slow");
        assertThat(rows).extracting(TaskRun::outcome).containsExactly(RunOutcome.SUCCEEDED, RunOutcome.SUCCEEDED);
        TaskRun second = rows.get(1);
        assertThat(second.scheduledFor()).hasValue(TEN.plus(FIVE_MIN));
        assertThat(second.waited()).hasValue(Scheduler.POLL.multipliedBy(4));
        // w2 has measured nothing yet and its successor would wait too: the first guess, 1 s.
        assertThat(second.deadline()).as("the wait comes out of the run's own window")
                .hasValue(TEN.plus(FIVE_MIN.multipliedBy(2)).minus(SafetyMargins.FIRST_GUESS));
        assertThat(second.startedAt()).as("database clock: no overlap")
                .isAfterOrEqualTo(rows.get(0).finishedAt().orElseThrow());
        assertThat(maxLive.get()).isEqualTo(1);
    }

    @Test
    void a_run_still_holding_the_task_when_the_wait_runs_out_is_skipped_as_before() throws Exception {
        try (Scheduler first = new Scheduler(db.dataSource(), HandlerRegistry.of(slowHandler()), config("w1"), clock)) {
            Thread held = startHeldRun(first);
            clock.set(TEN.plus(FIVE_MIN));
            TestSleeper sleeper = new TestSleeper(Integer.MAX_VALUE, held);
            try (Scheduler s = second(sleeper)) {
                TickSummary summary = s.tick();

                assertThat(summary.entries()).extracting(TickSummary.Entry::outcome)
                        .containsExactly(RunOutcome.SKIPPED_OVERLAP);
            }
            assertThat(clock.instant()).isEqualTo(TEN.plus(FIVE_MIN).plus(WAIT));
            letGo.countDown();
            held.join(30_000);
        }
        List<TaskRun> rows = history(db.dataSource(), "slow");
        assertThat(rows).extracting(TaskRun::outcome).containsExactly(RunOutcome.SUCCEEDED, RunOutcome.SKIPPED_OVERLAP);
        assertThat(rows.get(1).summary().orElseThrow().get("waitedMs").asLong()).isEqualTo(WAIT.toMillis());
        assertThat(runs.get()).isEqualTo(1);
    }

    @Test
    void a_run_inside_its_own_window_is_not_waited_for() throws Exception {
        try (Scheduler first = new Scheduler(db.dataSource(), HandlerRegistry.of(slowHandler()), config("w1"), clock)) {
            Thread held = startHeldRun(first);
            clock.set(TEN.plusSeconds(90));
            TestSleeper sleeper = new TestSleeper(1, held);
            try (Scheduler s = second(sleeper)) {
                assertThat(s.tick().entries()).extracting(TickSummary.Entry::outcome)
                        .containsExactly(RunOutcome.SKIPPED_OVERLAP);
            }
            assertThat(sleeper.calls).isZero();
            letGo.countDown();
            held.join(30_000);
        }
        assertThat(runs.get()).isEqualTo(1);
    }
}
