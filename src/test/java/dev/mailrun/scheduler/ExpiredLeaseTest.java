package dev.mailrun.scheduler;

import static dev.mailrun.scheduler.Fixtures.config;
import static dev.mailrun.scheduler.Fixtures.history;
import static dev.mailrun.scheduler.Fixtures.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run whose heartbeat stopped is abandoned once its lease expires, and none of its later writes
 * changes anything; a heartbeat moves the lease forward by the database clock.
 */
class ExpiredLeaseTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");

    /** A handler that blocks until released, then tries every kind of write a run can make. */
    static final class StallingHandler implements TaskHandler {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicReference<List<Boolean>> writesAccepted = new AtomicReference<>();

        @Override
        public String name() {
            return "stall";
        }

        @Override
        public void run(RunContext ctx) throws Exception {
            started.countDown();
            release.await(30, TimeUnit.SECONDS);
            ctx.metadata().put("writtenBy", "zombie");
            boolean heartbeat = ctx.heartbeat();
            boolean checkpoint = ctx.checkpoint();
            boolean checkpointInTx;
            boolean leaseInTx;
            try (Connection c = db.dataSource().getConnection()) {
                checkpointInTx = ctx.checkpoint(c);
                leaseInTx = ctx.extendLease(c);
            }
            writesAccepted.set(List.of(heartbeat, checkpoint, checkpointInTx, leaseInTx, ctx.leaseLost(), ctx.stopRequested()));
            ctx.runNextAt(Instant.parse("2030-01-01T00:00:00Z"));
        }
    }

    /** The healthy worker's handler, which also cleans up after the dead run. */
    static final class TakeoverHandler implements TaskHandler {
        final AtomicReference<String> cleanedUpToken = new AtomicReference<>();

        @Override
        public String name() {
            return "stall";
        }

        @Override
        public void run(RunContext ctx) {
            ctx.metadata().put("writtenBy", "successor");
        }

        @Override
        public void onAbandoned(Connection c, String abandonedRunToken, Metadata metadata) {
            cleanedUpToken.set(abandonedRunToken);
        }
    }

    @Test
    void a_run_whose_heartbeat_stopped_is_abandoned_after_lease_expiry_and_the_zombies_writes_change_nothing()
            throws Exception {
        SettableClock clock = new SettableClock(TEN);
        new TaskStore(db.dataSource()).create(NewTask.of("stalled", "stall", Duration.ofMinutes(5), TEN));
        StallingHandler stalling = new StallingHandler();
        TakeoverHandler successor = new TakeoverHandler();
        try (Scheduler dying = new Scheduler(db.newPool("dying", 3), HandlerRegistry.of(stalling), config("dying"), clock);
             Scheduler healthy = new Scheduler(db.newPool("healthy", 3), HandlerRegistry.of(successor), config("healthy"),
                     clock)) {
            CompletableFuture<TickSummary> zombieTick = CompletableFuture.supplyAsync(() -> tickUnchecked(dying));
            assertThat(stalling.started.await(10, TimeUnit.SECONDS)).isTrue();
            String zombieToken = task(db.dataSource(), "stalled").liveRun().orElseThrow().runToken();

            assertThat(healthy.tick().count(RunOutcome.SKIPPED_OVERLAP)).as("lease still live").isEqualTo(1);

            Fixtures.expireLease(db.dataSource(), "stalled");
            TickSummary takeover = healthy.tick();

            assertThat(takeover.count(RunOutcome.ABANDONED)).isEqualTo(1);
            assertThat(takeover.count(RunOutcome.SUCCEEDED)).isEqualTo(1);
            assertThat(successor.cleanedUpToken.get()).isEqualTo(zombieToken);
            Task afterTakeover = task(db.dataSource(), "stalled");
            assertThat(afterTakeover.metadata().getString("writtenBy")).hasValue("successor");
            assertThat(afterTakeover.nextRunAt()).isEqualTo(TEN.plus(Duration.ofMinutes(5)));

            stalling.release.countDown();
            TickSummary zombie = zombieTick.get(10, TimeUnit.SECONDS);

            assertThat(stalling.writesAccepted.get()).containsExactly(false, false, false, false, true, true);
            assertThat(zombie.count(RunOutcome.ABANDONED)).isEqualTo(1);
            Task afterZombie = task(db.dataSource(), "stalled");
            assertThat(afterZombie.metadata()).isEqualTo(afterTakeover.metadata());
            assertThat(afterZombie.nextRunAt()).isEqualTo(afterTakeover.nextRunAt());
            assertThat(afterZombie.lastFinishedAt()).isEqualTo(afterTakeover.lastFinishedAt());
            List<TaskRun> runs = history(db.dataSource(), "stalled");
            assertThat(runs).extracting(TaskRun::outcome).containsExactly(
                    RunOutcome.ABANDONED, RunOutcome.SKIPPED_OVERLAP, RunOutcome.SUCCEEDED);
            assertThat(runs.get(0).runToken()).hasValue(zombieToken);
            assertThat(runs.get(0).error()).hasValueSatisfying(e -> assertThat(e).contains("lease expired"));
            assertThat(runs.get(0).finishedAt()).isPresent();
        }
    }

    @Test
    void a_heartbeat_moves_the_lease_forward_by_the_database_clock() throws Exception {
        SettableClock clock = new SettableClock(TEN);
        new TaskStore(db.dataSource()).create(NewTask.of("beating", "beat", Duration.ofMinutes(5), TEN));
        AtomicReference<Instant> before = new AtomicReference<>();
        AtomicReference<Instant> after = new AtomicReference<>();
        TaskHandler beat = Fixtures.handler("beat", ctx -> {
            before.set(task(db.dataSource(), "beating").liveRun().orElseThrow().leaseUntil());
            Thread.sleep(5); // the database clock must move on by at least a millisecond
            assertThat(ctx.heartbeat()).isTrue();
            after.set(task(db.dataSource(), "beating").liveRun().orElseThrow().leaseUntil());
        });
        try (Scheduler s = new Scheduler(db.dataSource(), HandlerRegistry.of(beat), config("beater"), clock)) {
            s.tick();
        }
        assertThat(after.get()).isAfter(before.get());
        assertThat(before.get()).isAfter(Instant.now().plus(Duration.ofMinutes(29)));
    }

    private static TickSummary tickUnchecked(Scheduler s) {
        try {
            return s.tick();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
