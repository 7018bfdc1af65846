package dev.mailrun.scheduler;

import static dev.mailrun.scheduler.Fixtures.handler;
import static dev.mailrun.scheduler.Fixtures.history;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Several schedulers tick the same always-due task as fast as they can. The handler increments a
 * plain, unsynchronised counter with a pause between read and write: any overlap of two runs loses an
 * update, so the counter must equal the number of succeeded runs, and no two recorded runs may overlap.
 */
class ExactlyOnceFuzzTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final int SCHEDULERS = 4;
    private static final int TICKS_EACH = 1000;

    private int counter; // deliberately neither volatile nor synchronised

    @Test
    void thousands_of_ticks_from_several_schedulers_never_overlap_runs_or_lose_an_update() throws Exception {
        SettableClock clock = SettableClock.at("2026-06-01T10:00:00Z");
        TaskHandler increment = handler("increment", ctx -> {
            int read = counter;
            for (int i = 0; i < 200; i++) {
                Thread.onSpinWait();
            }
            Thread.yield();
            counter = read + 1;
            ctx.runNextAt(ctx.clock().instant()); // due again at once: every tick competes
        });
        new TaskStore(db.dataSource()).create(NewTask.of("fuzzed", "increment", Duration.ofMinutes(1), clock.instant()));
        List<Scheduler> schedulers = new ArrayList<>();
        for (int i = 0; i < SCHEDULERS; i++) {
            schedulers.add(new Scheduler(db.newPool("fuzz-" + i, 3), HandlerRegistry.of(increment),
                    Fixtures.config("fuzzer-" + i), clock));
        }
        ExecutorService pool = Executors.newFixedThreadPool(SCHEDULERS);
        List<Future<Long>> results = new ArrayList<>();
        try {
            for (Scheduler s : schedulers) {
                results.add(pool.submit(() -> {
                    long ran = 0;
                    for (int t = 0; t < TICKS_EACH; t++) {
                        ran += s.tick().count(RunOutcome.SUCCEEDED);
                    }
                    return ran;
                }));
            }
            long ran = 0;
            for (Future<Long> r : results) {
                ran += r.get();
            }

            List<TaskRun> succeeded = history(db.dataSource(), "fuzzed", RunOutcome.SUCCEEDED);
            assertThat(ran).isGreaterThan(SCHEDULERS * TICKS_EACH / 10);
            assertThat(succeeded).hasSize((int) ran);
            assertThat(counter).as("lost updates mean overlapping runs").isEqualTo(ran);
            assertThat(history(db.dataSource(), "fuzzed").stream().map(TaskRun::outcome))
                    .allMatch(o -> o == RunOutcome.SUCCEEDED || o == RunOutcome.SKIPPED_OVERLAP);
            List<TaskRun> byStart = succeeded.stream()
                    .sorted(Comparator.comparing(TaskRun::startedAt).thenComparing(TaskRun::id)).toList();
            for (int i = 1; i < byStart.size(); i++) {
                TaskRun previous = byStart.get(i - 1);
                TaskRun next = byStart.get(i);
                assertThat(next.startedAt()).as("run %d starts before run %d finished", next.id(), previous.id())
                        .isAfterOrEqualTo(previous.finishedAt().orElseThrow());
            }
        } finally {
            pool.shutdownNow();
            schedulers.forEach(Scheduler::close);
        }
    }
}
