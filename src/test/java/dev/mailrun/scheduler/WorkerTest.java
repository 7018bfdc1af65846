package dev.mailrun.scheduler;

import static dev.mailrun.scheduler.Fixtures.config;
import static dev.mailrun.scheduler.Fixtures.handler;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class WorkerTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");
    private static final Duration FIVE_MIN = Duration.ofMinutes(5);

    /** Jumps the settable clock to each wake-up time; stops the worker after a number of sleeps. */
    static final class JumpingSleeper implements Sleeper {
        final SettableClock clock;
        final int sleepsBeforeStop;
        final List<Instant> wakeUps = new ArrayList<>();
        Worker worker;

        JumpingSleeper(SettableClock clock, int sleepsBeforeStop) {
            this.clock = clock;
            this.sleepsBeforeStop = sleepsBeforeStop;
        }

        @Override
        public void sleepUntil(Instant wakeAt) {
            wakeUps.add(wakeAt);
            clock.set(wakeAt);
            if (wakeUps.size() == sleepsBeforeStop) {
                worker.stop();
            }
        }

        @Override
        public void wakeUp() {}
    }

    @BeforeEach
    void startWithNoTasks() throws Exception {
        Fixtures.deleteAllTasks(db.dataSource());
    }

    @Test
    void ticks_fire_on_aligned_slots_whatever_the_run_length() throws Exception {
        SettableClock clock = new SettableClock(TEN.plusSeconds(17));
        List<Instant> ticks = new ArrayList<>();
        List<Duration> runLengths = new ArrayList<>(List.of(Duration.ofSeconds(100), Duration.ofSeconds(280),
                Duration.ofSeconds(1), Duration.ofMinutes(7), Duration.ofSeconds(30)));
        new TaskStore(db.dataSource()).create(NewTask.of("aligned", "work", FIVE_MIN, TEN));
        Scheduler scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(handler("work", ctx -> {
            ticks.add(ctx.clock().instant());
            clock.advance(runLengths.remove(0));
        })), config("aligned-worker"), clock);
        JumpingSleeper sleeper = new JumpingSleeper(clock, 5);
        Worker worker = new Worker(scheduler, FIVE_MIN, clock, sleeper);
        sleeper.worker = worker;

        worker.run();

        assertThat(sleeper.wakeUps).containsExactly(at("10:05"), at("10:10"), at("10:15"), at("10:25"), at("10:30"));
        assertThat(ticks).containsExactly(at("10:00:17"), at("10:05"), at("10:10"), at("10:15"), at("10:25"));
    }

    @Test
    void an_exception_in_the_tick_is_logged_and_the_loop_keeps_running() throws Exception {
        SettableClock clock = new SettableClock(TEN);
        HikariDataSource broken = db.newPool("broken", 2);
        broken.close();
        Scheduler scheduler = new Scheduler(broken, HandlerRegistry.of(), config("broken-worker"), clock);
        JumpingSleeper sleeper = new JumpingSleeper(clock, 3);
        Worker worker = new Worker(scheduler, FIVE_MIN, clock, sleeper);
        sleeper.worker = worker;

        worker.run();

        assertThat(sleeper.wakeUps).containsExactly(at("10:05"), at("10:10"), at("10:15"));
    }

    @Test
    void a_real_sleeper_is_woken_at_once_to_stop_and_a_started_worker_shuts_down_within_its_grace() throws Exception {
        Clock clock = Clock.systemUTC();
        Scheduler scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(), config("real"), clock);
        Worker worker = new Worker(scheduler, Duration.ofHours(1), clock, Sleeper.onClock(clock));
        Thread thread = worker.start();
        long start = System.nanoTime();

        assertThat(worker.shutdown(Duration.ofSeconds(5))).isTrue();

        thread.join(TimeUnit.SECONDS.toMillis(5));
        assertThat(thread.isAlive()).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void the_next_slot_is_strictly_after_now_on_the_epoch_grid() {
        assertThat(Worker.nextSlot(at("10:00"), FIVE_MIN)).isEqualTo(at("10:05"));
        assertThat(Worker.nextSlot(at("10:04:59.999"), FIVE_MIN)).isEqualTo(at("10:05"));
        assertThat(Worker.nextSlot(at("10:05:00.001"), FIVE_MIN)).isEqualTo(at("10:10"));
    }

    private static Instant at(String time) {
        return Instant.parse("2026-06-01T" + (time.length() == 5 ? time + ":00" : time) + "Z");
    }
}
