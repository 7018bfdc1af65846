package dev.mailrun.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WriteDeadlinesTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final WriteDeadlines deadlines = WriteDeadlines.unwatched(nanos::get);

    @Test
    void a_task_runs_once_its_deadline_has_passed_and_not_before() throws Exception {
        AtomicInteger closed = new AtomicInteger();
        ScheduledFuture<String> write = deadlines.schedule(() -> "closed " + closed.incrementAndGet(), 300,
                TimeUnit.MILLISECONDS);

        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(299));
        assertThat(deadlines.runDue()).isZero();
        assertThat(write.getDelay(TimeUnit.MILLISECONDS)).isEqualTo(1);

        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));
        assertThat(deadlines.runDue()).isOne();
        assertThat(deadlines.runDue()).isZero();
        assertThat(closed).hasValue(1);
        // As the mail API reads a timed-out write: cancel fails, and the task's result is there.
        assertThat(write.cancel(true)).isFalse();
        assertThat(write.get(1, TimeUnit.SECONDS)).isEqualTo("closed 1");
        assertThat(deadlines.pending()).isZero();
    }

    @Test
    void a_write_that_returns_in_time_cancels_its_task_and_leaves_nothing_behind() {
        AtomicInteger closed = new AtomicInteger();
        for (int i = 0; i < 1000; i++) {
            ScheduledFuture<?> write = deadlines.schedule(closed::incrementAndGet, 10, TimeUnit.SECONDS);
            assertThat(write.cancel(true)).isTrue();
        }
        assertThat(deadlines.pending()).isZero();

        nanos.addAndGet(TimeUnit.SECONDS.toNanos(60));
        assertThat(deadlines.runDue()).isZero();
        assertThat(closed).hasValue(0);
    }

    @Test
    void only_the_overdue_of_several_writes_run() {
        AtomicInteger closed = new AtomicInteger();
        deadlines.schedule(closed::incrementAndGet, 100, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> later = deadlines.schedule(closed::incrementAndGet, 200, TimeUnit.MILLISECONDS);
        deadlines.schedule(closed::incrementAndGet, 50, TimeUnit.MILLISECONDS);

        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(150));

        assertThat(deadlines.runDue()).isEqualTo(2);
        assertThat(closed).hasValue(2);
        assertThat(later.isDone()).isFalse();
        assertThat(deadlines.pending()).isOne();
    }

    @Test
    void a_failing_task_keeps_its_failure_in_its_future() {
        ScheduledFuture<String> write = deadlines.schedule(() -> {
            throw new IllegalStateException("socket already gone");
        }, 1, TimeUnit.MILLISECONDS);
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1));

        assertThat(deadlines.runDue()).isOne();
        assertThatThrownBy(() -> write.get(1, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasRootCauseMessage("socket already gone");
    }

    @Test
    void only_one_shot_schedules_are_taken_and_none_after_shutdown() {
        assertThatThrownBy(() -> deadlines.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.SECONDS))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> deadlines.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);

        deadlines.shutdown();

        assertThat(deadlines.isShutdown()).isTrue();
        assertThatThrownBy(() -> deadlines.schedule(() -> "x", 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessage("write deadlines are shut down");
    }

    @Test
    void the_watcher_runs_a_due_task_after_sleeping_and_stops_on_shutdown() throws Exception {
        // The real watcher on real time: the one place here that waits, for at most the timeout
        // of get(). It first goes idle (nothing scheduled), so the schedule must wake it.
        WriteDeadlines watched = WriteDeadlines.watched("test-write-deadlines");
        try {
            ScheduledFuture<String> write = watched.schedule(() -> "timed out", 1, TimeUnit.MILLISECONDS);
            assertThat(write.get(10, TimeUnit.SECONDS)).isEqualTo("timed out");
        } finally {
            watched.shutdownNow();
        }
        assertThat(watched.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void a_schedule_always_wakes_a_watcher_that_fell_asleep() throws Exception {
        // The watcher sleeps after one empty scan; each round waits for it to be asleep, then
        // schedules a deadline already due. A wake-up lost between "nothing to watch" and the
        // sleep would leave the task unrun and get() would time out.
        WriteDeadlines watched = WriteDeadlines.watched("test-write-deadlines", Duration.ofMillis(1), 1);
        try {
            for (int round = 0; round < 200; round++) {
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!watched.sleeping() && System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                assertThat(watched.sleeping()).as("asleep before round %d", round).isTrue();
                int r = round;
                ScheduledFuture<Integer> write = watched.schedule(() -> r, 0, TimeUnit.MILLISECONDS);
                assertThat(write.get(10, TimeUnit.SECONDS)).isEqualTo(round);
            }
        } finally {
            watched.shutdownNow();
        }
    }

    @Test
    void writes_from_several_threads_that_return_in_time_leave_nothing_pending_and_close_nothing() throws Exception {
        WriteDeadlines watched = WriteDeadlines.watched("test-write-deadlines", Duration.ofMillis(1), 1);
        AtomicInteger closed = new AtomicInteger();
        ExecutorService writers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                done.add(writers.submit(() -> {
                    for (int i = 0; i < 20_000; i++) {
                        ScheduledFuture<?> write = watched.schedule(closed::incrementAndGet, 1, TimeUnit.HOURS);
                        assertThat(write.cancel(true)).isTrue();
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
            assertThat(watched.pending()).isZero();
            assertThat(closed).hasValue(0);
        } finally {
            writers.shutdownNow();
            watched.shutdownNow();
        }
    }
}
