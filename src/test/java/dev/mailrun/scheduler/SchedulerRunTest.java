package dev.mailrun.scheduler;

import static dev.mailrun.scheduler.Fixtures.config;
import static dev.mailrun.scheduler.Fixtures.handler;
import static dev.mailrun.scheduler.Fixtures.history;
import static dev.mailrun.scheduler.Fixtures.task;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.mailrun.testing.SettableClock;
import dev.mailrun.testing.TestDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

class SchedulerRunTest {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    private static final Instant TEN = Instant.parse("2026-06-01T10:00:00Z");
    private static final Duration FIVE_MIN = Duration.ofMinutes(5);

    private final SettableClock clock = new SettableClock(TEN);
    private final TaskStore store = new TaskStore(db.dataSource());

    @BeforeEach
    void startWithNoTasks() throws Exception {
        Fixtures.deleteAllTasks(db.dataSource());
    }

    private Scheduler scheduler(TaskHandler... handlers) {
        return new Scheduler(db.dataSource(), HandlerRegistry.of(handlers), config("test-worker"), clock);
    }

    @Test
    void a_due_task_runs_once_with_its_metadata_deadline_and_token_and_is_scheduled_for_the_next_slot() throws Exception {
        store.create(NewTask.of("plain", "echo", FIVE_MIN, TEN).withMetadata(Metadata.empty().put("cursor", 41)));
        AtomicReference<RunContext> seen = new AtomicReference<>();
        try (Scheduler s = scheduler(handler("echo", ctx -> {
            seen.set(ctx);
            ctx.metadata().put("cursor", ctx.metadata().getLong("cursor").orElseThrow() + 1);
            ctx.report(RunReport.of(2, 150, 0.75, Duration.ofSeconds(3)).withSummary("sent", 150));
        }))) {
            TickSummary summary = s.tick();

            assertThat(summary.runs()).isEqualTo(1);
            assertThat(seen.get().scheduledFor()).isEqualTo(TEN);
            assertThat(seen.get().deadline()).isEqualTo(TEN.plus(FIVE_MIN).minusSeconds(30));
            Task after = task(db.dataSource(), "plain");
            assertThat(after.metadata().getLong("cursor")).hasValue(42);
            assertThat(after.nextRunAt()).isEqualTo(TEN.plus(FIVE_MIN));
            assertThat(after.liveRun()).isEmpty();
            assertThat(after.lastStartedAt()).isPresent();
            TaskRun run = history(db.dataSource(), "plain").get(0);
            assertThat(run.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
            assertThat(run.runToken()).hasValue(seen.get().runToken());
            assertThat(run.owner()).isEqualTo("test-worker");
            assertThat(run.scheduledFor()).hasValue(TEN);
            assertThat(run.deadline()).hasValue(seen.get().deadline());
            assertThat(run.batches()).hasValue(2L);
            assertThat(run.items()).hasValue(150L);
            assertThat(run.utilisation()).hasValue(0.75);
            assertThat(run.overrun()).hasValue(Duration.ofSeconds(3));
            assertThat(run.summary().orElseThrow().get("sent").asInt()).isEqualTo(150);
            assertThat(run.duration()).isPresent();

            assertThat(s.tick().entries()).as("not due again until the next slot").isEmpty();
        }
    }

    @Test
    void a_failing_handler_fills_the_error_log_keeps_the_last_checkpoint_and_backs_off() throws Exception {
        store.create(NewTask.of("flaky", "flaky", FIVE_MIN, TEN).withMetadata(Metadata.empty().put("done", 0)));
        try (Scheduler s = scheduler(handler("flaky", ctx -> {
            ctx.metadata().put("done", 10);
            ctx.checkpoint();
            ctx.metadata().put("done", 999);
            ctx.metadata().json().putArray("garbage");
            throw new IllegalStateException("SMTP relay refused us");
        }))) {
            assertThat(s.tick().count(RunOutcome.FAILED)).isEqualTo(1);

            Task after = task(db.dataSource(), "flaky");
            assertThat(after.metadata().json().toString()).isEqualTo("{\"done\":10}");
            assertThat(after.consecutiveFailures()).isEqualTo(1);
            assertThat(after.nextRunAt()).isEqualTo(TEN.plus(FIVE_MIN));
            ErrorLog error = after.lastError().orElseThrow();
            assertThat(error.type()).isEqualTo(IllegalStateException.class.getName());
            assertThat(error.message()).isEqualTo("SMTP relay refused us");
            assertThat(error.stackTrace()).contains("SchedulerRunTest");
            assertThat(error.runToken()).isEqualTo(history(db.dataSource(), "flaky").get(0).runToken().orElseThrow());
            assertThat(history(db.dataSource(), "flaky").get(0).error()).hasValueSatisfying(e ->
                    assertThat(e).startsWith("java.lang.IllegalStateException: SMTP relay refused us"));

            clock.set(TEN.plus(FIVE_MIN));
            s.tick();
            assertThat(task(db.dataSource(), "flaky").nextRunAt()).as("second failure: two intervals")
                    .isEqualTo(TEN.plus(FIVE_MIN).plus(FIVE_MIN.multipliedBy(2)));
            assertThat(task(db.dataSource(), "flaky").consecutiveFailures()).isEqualTo(2);
        }
    }

    @Test
    void a_success_after_failures_resets_the_backoff_and_keeps_the_last_error_for_the_operator() throws Exception {
        store.create(NewTask.of("recovering", "recovering", FIVE_MIN, TEN));
        boolean[] fail = {true};
        try (Scheduler s = scheduler(handler("recovering", ctx -> {
            if (fail[0]) {
                throw new RuntimeException("once");
            }
        }))) {
            s.tick();
            fail[0] = false;
            clock.set(TEN.plus(FIVE_MIN));
            s.tick();
            Task after = task(db.dataSource(), "recovering");
            assertThat(after.consecutiveFailures()).isZero();
            assertThat(after.nextRunAt()).isEqualTo(TEN.plus(FIVE_MIN.multipliedBy(2)));
            assertThat(after.lastError()).isPresent();
        }
    }

    @Test
    void a_task_without_a_handler_here_is_skipped_with_one_warning_per_tick_and_stays_due() throws Exception {
        store.create(NewTask.of("orphan", "nobody-registered-me", FIVE_MIN, TEN));
        store.create(NewTask.of("healthy", "echo", FIVE_MIN, TEN.plusMillis(1)));
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger schedulerLog = (Logger) LoggerFactory.getLogger(Scheduler.class);
        logged.start();
        schedulerLog.addAppender(logged);
        try (Scheduler s = scheduler(handler("echo", ctx -> {}))) {
            clock.set(TEN.plusMillis(1));
            TickSummary first = s.tick();
            clock.set(TEN.plus(FIVE_MIN).plusMillis(1));
            TickSummary second = s.tick();

            assertThat(first.count(RunOutcome.SKIPPED_NO_HANDLER)).isEqualTo(1);
            assertThat(first.count(RunOutcome.SUCCEEDED)).as("the other task still runs").isEqualTo(1);
            assertThat(second.count(RunOutcome.SKIPPED_NO_HANDLER)).isEqualTo(1);
            assertThat(first.entries()).filteredOn(e -> e.taskName().equals("orphan")).singleElement()
                    .extracting(TickSummary.Entry::detail).asString()
                    .contains("no handler named 'nobody-registered-me'").contains("echo");

            List<ILoggingEvent> aboutOrphan = logged.list.stream()
                    .filter(e -> e.getFormattedMessage().contains("orphan")).toList();
            assertThat(aboutOrphan).as("one line per tick").hasSize(2)
                    .allSatisfy(e -> {
                        assertThat(e.getLevel()).isEqualTo(Level.WARN);
                        assertThat(e.getThrowableProxy()).as("no stack trace").isNull();
                        assertThat(e.getFormattedMessage()).contains("no handler named 'nobody-registered-me'")
                                .doesNotContain("\n");
                    });
            assertThat(logged.list).noneMatch(e -> e.getLevel() == Level.ERROR);

            Task orphan = task(db.dataSource(), "orphan");
            assertThat(orphan.nextRunAt()).as("still due, no backoff").isEqualTo(TEN);
            assertThat(orphan.consecutiveFailures()).isZero();
            assertThat(orphan.lastError()).isEmpty();
            assertThat(orphan.liveRun()).isEmpty();
            assertThat(history(db.dataSource(), "orphan")).extracting(TaskRun::outcome)
                    .containsExactly(RunOutcome.SKIPPED_NO_HANDLER, RunOutcome.SKIPPED_NO_HANDLER);
        } finally {
            schedulerLog.detachAppender(logged);
        }
        try (Scheduler withHandler = scheduler(handler("nobody-registered-me", ctx -> {}))) {
            assertThat(withHandler.tick().count(RunOutcome.SUCCEEDED)).as("runs once its handler is there").isEqualTo(1);
        }
    }

    @Test
    void a_handler_can_choose_its_next_run_time() throws Exception {
        store.create(NewTask.of("tomorrow", "later", FIVE_MIN, TEN));
        Instant nineTomorrow = Instant.parse("2026-06-02T09:00:00Z");
        try (Scheduler s = scheduler(handler("later", ctx -> ctx.runNextAt(nineTomorrow)))) {
            s.tick();
            assertThat(task(db.dataSource(), "tomorrow").nextRunAt()).isEqualTo(nineTomorrow);
        }
    }

    @Test
    void a_handler_that_has_finished_its_work_can_disable_its_task() throws Exception {
        store.create(NewTask.of("one-shot", "once", FIVE_MIN, TEN));
        try (Scheduler s = scheduler(handler("once", RunContext::disableAfterThisRun))) {
            s.tick();
            assertThat(task(db.dataSource(), "one-shot").enabled()).isFalse();
            clock.advance(Duration.ofHours(2));
            assertThat(s.tick().entries()).isEmpty();
        }
    }

    @Test
    void a_checkpoint_in_the_callers_transaction_commits_and_rolls_back_with_it() throws Exception {
        store.create(NewTask.of("tx", "tx", FIVE_MIN, TEN).withMetadata(Metadata.empty().put("sent", 0)));
        AtomicReference<Long> seenInsideRolledBack = new AtomicReference<>();
        try (Scheduler s = scheduler(handler("tx", ctx -> {
            try (Connection c = db.dataSource().getConnection()) {
                c.setAutoCommit(false);
                ctx.metadata().put("sent", 5);
                assertThat(ctx.checkpoint(c)).isTrue();
                c.rollback();
                seenInsideRolledBack.set(task(db.dataSource(), "tx").metadata().getLong("sent").orElseThrow());
                ctx.metadata().put("sent", 7);
                assertThat(ctx.checkpoint(c)).isTrue();
                c.commit();
                c.setAutoCommit(true);
            }
            throw new IllegalStateException("fail after the committed checkpoint");
        }))) {
            s.tick();
        }
        assertThat(seenInsideRolledBack.get()).isZero();
        assertThat(task(db.dataSource(), "tx").metadata().getLong("sent")).hasValue(7);
    }

    @Test
    void extending_the_lease_in_the_callers_transaction_leaves_the_saved_metadata_as_it_was() throws Exception {
        store.create(NewTask.of("fence", "fence", FIVE_MIN, TEN).withMetadata(Metadata.empty().put("sent", 3)));
        AtomicReference<Boolean> extended = new AtomicReference<>();
        AtomicReference<Long> savedAfter = new AtomicReference<>();
        try (Scheduler s = scheduler(handler("fence", ctx -> {
            try (Connection c = db.dataSource().getConnection()) {
                c.setAutoCommit(false);
                ctx.metadata().put("sent", 9);
                extended.set(ctx.extendLease(c));
                c.commit();
                c.setAutoCommit(true);
            }
            savedAfter.set(task(db.dataSource(), "fence").metadata().getLong("sent").orElseThrow());
            ctx.disableAfterThisRun();
        }))) {
            s.tick();
        }
        assertThat(extended.get()).isTrue();
        assertThat(savedAfter.get()).as("the lease, not the metadata").isEqualTo(3);
    }

    @Test
    void stored_instants_survive_a_session_time_zone_that_differs_from_the_jvms() throws Exception {
        Instant oddMoment = Instant.parse("2026-03-29T01:30:00.123Z");
        store.create(NewTask.of("zones", "echo", FIVE_MIN, oddMoment));
        assertThat(java.util.TimeZone.getDefault().getID()).isNotEqualTo("UTC");
        assertThat(task(db.dataSource(), "zones").nextRunAt()).isEqualTo(oddMoment);
        try (Connection c = db.dataSource().getConnection();
             var rs = c.createStatement().executeQuery(
                     "SELECT CAST(next_run_at AS CHAR), @@session.time_zone FROM task WHERE name = 'zones'")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("2026-03-29 01:30:00.123");
            assertThat(rs.getString(2)).isEqualTo("-08:00");
        }
        clock.set(oddMoment);
        try (Scheduler s = scheduler(handler("echo", ctx -> {}))) {
            s.tick();
        }
        assertThat(task(db.dataSource(), "zones").nextRunAt()).isEqualTo(oddMoment.plus(FIVE_MIN));
        assertThat(history(db.dataSource(), "zones").get(0).scheduledFor()).hasValue(oddMoment);
    }

    @Test
    void a_run_report_replaces_the_previous_one_and_an_empty_report_is_stored_as_zeroes() throws Exception {
        store.create(NewTask.of("quiet", "quiet", FIVE_MIN, TEN));
        try (Scheduler s = scheduler(handler("quiet", ctx -> {}))) {
            s.tick();
        }
        TaskRun run = history(db.dataSource(), "quiet").get(0);
        assertThat(run.items()).hasValue(0L);
        assertThat(run.utilisation()).isEmpty();
        assertThat(run.summary().orElseThrow().size()).isZero();
    }
}
