package dev.mailrun.scheduler;

import static dev.mailrun.scheduler.Fixtures.config;
import static dev.mailrun.scheduler.Fixtures.handler;
import static dev.mailrun.scheduler.Fixtures.history;
import static dev.mailrun.scheduler.Fixtures.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ShutdownTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");

    private final SettableClock clock = new SettableClock(TEN);

    @BeforeEach
    void startWithNoTasks() throws Exception {
        Fixtures.deleteAllTasks(db.dataSource());
    }

    @Test
    void shutdown_asks_the_handler_to_stop_and_records_its_outcome_checkpoint_and_released_lease() throws Exception {
        new TaskStore(db.dataSource()).create(NewTask.of("long", "loop", Duration.ofMinutes(5), TEN));
        CountDownLatch started = new CountDownLatch(1);
        Scheduler scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(handler("loop", ctx -> {
            started.countDown();
            long batches = 0;
            while (!ctx.stopRequested()) {
                batches++;
                Thread.onSpinWait();
            }
            ctx.metadata().put("stoppedCleanly", true);
            ctx.report(RunReport.of(batches, 0, 0.5, Duration.ZERO));
        })), config("stopping"), clock);
        CompletableFuture<TickSummary> tick = CompletableFuture.supplyAsync(() -> tick(scheduler));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(scheduler.shutdown(Duration.ofSeconds(10))).isTrue();

        assertThat(tick.get(1, TimeUnit.SECONDS).count(RunOutcome.STOPPED)).isEqualTo(1);
        Task after = task(db.dataSource(), "long");
        assertThat(after.liveRun()).isEmpty();
        assertThat(after.metadata().getBoolean("stoppedCleanly")).hasValue(true);
        assertThat(history(db.dataSource(), "long").get(0).outcome()).isEqualTo(RunOutcome.STOPPED);
        clock.advance(Duration.ofHours(1));
        assertThat(scheduler.tick().entries()).as("a stopped scheduler runs nothing").isEmpty();
    }

    @Test
    void a_handler_that_ignores_the_stop_signal_past_the_grace_period_has_its_lease_cut_short() throws Exception {
        new TaskStore(db.dataSource()).create(NewTask.of("stubborn", "stubborn", Duration.ofMinutes(5), TEN));
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Scheduler scheduler = new Scheduler(db.newPool("stubborn", 3), HandlerRegistry.of(handler("stubborn", ctx -> {
            started.countDown();
            release.await(30, TimeUnit.SECONDS);
        })), config("stubborn-worker"), clock);
        CompletableFuture<TickSummary> tick = CompletableFuture.supplyAsync(() -> tick(scheduler));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(scheduler.shutdown(Duration.ofMillis(100))).isFalse();

        try (Connection c = db.dataSource().getConnection(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT lease_until <= UTC_TIMESTAMP(3) FROM task WHERE name = 'stubborn'")) {
            rs.next();
            assertThat(rs.getBoolean(1)).as("lease already expired").isTrue();
        }
        try (Scheduler successor = new Scheduler(db.dataSource(),
                HandlerRegistry.of(handler("stubborn", ctx -> {})), config("successor"), clock)) {
            TickSummary takeover = successor.tick();
            assertThat(takeover.count(RunOutcome.ABANDONED)).isEqualTo(1);
            assertThat(takeover.count(RunOutcome.SUCCEEDED)).isEqualTo(1);
        }
        release.countDown();
        assertThat(tick.get(10, TimeUnit.SECONDS).count(RunOutcome.ABANDONED)).isEqualTo(1);
    }

    private static TickSummary tick(Scheduler s) {
        try {
            return s.tick();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
