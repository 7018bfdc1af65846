package dev.mailrun.scheduler;

import static dev.mailrun.scheduler.Fixtures.config;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

/** What the tick loop says at INFO: the worker command announces the start once, with the configured interval. */
class WorkerLogTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @Test
    void the_tick_loop_does_not_announce_a_second_worker_start() throws Exception {
        SettableClock clock = new SettableClock(Instant.parse("2026-06-01T10:00:00Z"));
        Scheduler scheduler = new Scheduler(db.dataSource(), HandlerRegistry.of(), config("quiet-worker"), clock);
        WorkerTest.JumpingSleeper sleeper = new WorkerTest.JumpingSleeper(clock, 1);
        Worker worker = new Worker(scheduler, Duration.ofSeconds(30), clock, sleeper);
        sleeper.worker = worker;
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger log = (Logger) LoggerFactory.getLogger(Worker.class);
        logged.start();
        log.addAppender(logged);
        try {
            worker.run();
        } finally {
            log.detachAppender(logged);
        }
        assertThat(logged.list).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
                .extracting(ILoggingEvent::getFormattedMessage).noneMatch(m -> m.startsWith("Worker started"));
    }
}
