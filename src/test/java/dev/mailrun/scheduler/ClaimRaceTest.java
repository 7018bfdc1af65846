package dev.mailrun.scheduler;

import static dev.mailrun.scheduler.Fixtures.config;
import static dev.mailrun.scheduler.Fixtures.handler;
import static dev.mailrun.scheduler.Fixtures.history;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClaimRaceTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");

    @ParameterizedTest(name = "{0} schedulers")
    @ValueSource(ints = {2, 8})
    void schedulers_racing_for_the_same_due_task_claim_it_exactly_once(int schedulers) throws Exception {
        int rounds = 10;
        SettableClock clock = new SettableClock(TEN);
        AtomicInteger runs = new AtomicInteger();
        List<Scheduler> racers = new ArrayList<>();
        for (int i = 0; i < schedulers; i++) {
            racers.add(new Scheduler(db.newPool("race" + schedulers + "-" + i, 3),
                    HandlerRegistry.of(handler("count", ctx -> runs.incrementAndGet())), config("racer-" + i), clock));
        }
        String name = "raced-by-" + schedulers;
        new TaskStore(db.dataSource()).create(NewTask.of(name, "count", Duration.ofMinutes(5), TEN));
        ExecutorService pool = Executors.newFixedThreadPool(schedulers);
        try {
            for (int round = 0; round < rounds; round++) {
                CyclicBarrier start = new CyclicBarrier(schedulers);
                List<Future<TickSummary>> ticks = new ArrayList<>();
                for (Scheduler s : racers) {
                    ticks.add(pool.submit(() -> {
                        start.await();
                        return s.tick();
                    }));
                }
                long ran = 0;
                for (Future<TickSummary> tick : ticks) {
                    ran += tick.get().count(RunOutcome.SUCCEEDED);
                }
                assertThat(ran).as("runs in round %d", round).isEqualTo(1);
                clock.advance(Duration.ofMinutes(5));
            }
        } finally {
            pool.shutdownNow();
            racers.forEach(Scheduler::close);
        }
        assertThat(runs.get()).isEqualTo(rounds);
        assertThat(history(db.dataSource(), name, RunOutcome.SUCCEEDED)).hasSize(rounds);
        assertThat(history(db.dataSource(), name).stream().map(TaskRun::outcome))
                .allMatch(o -> o == RunOutcome.SUCCEEDED || o == RunOutcome.SKIPPED_OVERLAP);
    }
}
