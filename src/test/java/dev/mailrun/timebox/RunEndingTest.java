package dev.mailrun.timebox;

import dev.mailrun.testing.SettableClock;
import static dev.mailrun.timebox.TimeboxFixtures.CONFIG;
import static dev.mailrun.timebox.TimeboxFixtures.NEVER_STOP;
import static dev.mailrun.timebox.TimeboxFixtures.OVERHEAD;
import static dev.mailrun.timebox.TimeboxFixtures.T0;
import static dev.mailrun.timebox.TimeboxFixtures.at;
import static dev.mailrun.timebox.TimeboxFixtures.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RunEndingTest {

    private final SettableClock clock = new SettableClock(T0);
    private final Timebox timebox = new Timebox(clock, CONFIG);

    @Test
    void run_should_end_when_the_operator_answers_that_nothing_is_left() throws Exception {
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(10)).withItems(30);

        TimeboxReport report = timebox.runUntil(at(60_000), operator, EstimatorState.initial(), NEVER_STOP);

        assertThat(report.endReason()).isEqualTo(EndReason.OPERATOR_DONE);
        assertThat(report.items()).isEqualTo(30);
        assertThat(report.batches()).isEqualTo(operator.askedSizes.size());
    }

    @Test
    void run_should_not_start_a_batch_when_stop_is_requested_before_the_first() throws Exception {
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(10));

        TimeboxReport report = timebox.runUntil(at(60_000), operator, EstimatorState.initial(), () -> true);

        assertThat(report.batches()).isZero();
        assertThat(report.endReason()).isEqualTo(EndReason.STOP_REQUESTED);
    }

    @Test
    void run_should_check_the_stop_signal_between_batches() throws Exception {
        AtomicInteger checks = new AtomicInteger();
        SimulatedOperator operator = SimulatedOperator.constant(clock, OVERHEAD, ms(10));

        TimeboxReport report = timebox.runUntil(at(60_000), operator, EstimatorState.initial(),
                () -> checks.incrementAndGet() > 3);

        assertThat(report.batches()).isEqualTo(3);
        assertThat(report.endReason()).isEqualTo(EndReason.STOP_REQUESTED);
    }

    @Test
    void run_should_end_instead_of_spinning_when_a_batch_makes_no_progress_with_time_left() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        BatchOperator stuck = budget -> {
            calls.incrementAndGet();
            clock.advance(ms(1));
            return BatchResult.more(0);
        };

        for (Algorithm algorithm : Algorithm.values()) {
            calls.set(0);
            TimeboxReport report = timebox.runUntil(at(60_000), stuck, algorithm, EstimatorState.initial(), NEVER_STOP);

            assertThat(calls).as(algorithm.name()).hasValue(1);
            assertThat(report.endReason()).as(algorithm.name()).isEqualTo(EndReason.NO_PROGRESS);
        }
    }

    @Test
    void run_should_report_the_deadline_when_a_batch_could_not_fit_a_single_item() throws Exception {
        EstimatorState calibrated = new EstimatorState(10, 10, 0, 20);
        BatchOperator lateStarter = budget -> {
            clock.advance(ms(190)); // a slow claim eats the window
            return BatchResult.more(0);
        };

        TimeboxReport report = timebox.runUntil(at(200), lateStarter, Algorithm.PREDICTIVE, calibrated, NEVER_STOP);

        assertThat(report.endReason()).isEqualTo(EndReason.DEADLINE);
    }

    @Test
    void run_should_keep_the_estimator_unchanged_by_a_batch_without_items() throws Exception {
        EstimatorState calibrated = new EstimatorState(10, 10, 1, 20);
        BatchOperator stuck = budget -> BatchResult.more(0);

        TimeboxReport report = timebox.runUntil(at(60_000), stuck, Algorithm.PREDICTIVE, calibrated, NEVER_STOP);

        assertThat(report.estimator()).isEqualTo(calibrated);
    }

    @Test
    void failed_batch_should_carry_its_cause_and_the_report_of_the_completed_batches() throws Exception {
        AtomicInteger batch = new AtomicInteger();
        IOException broken = new IOException("connection reset");
        BatchOperator operator = budget -> {
            clock.advance(ms(50));
            if (batch.incrementAndGet() == 3) {
                throw broken;
            }
            return BatchResult.more(budget.maxItems());
        };

        BatchFailedException failure = catchThrowableOfType(BatchFailedException.class,
                () -> timebox.runUntil(at(60_000), operator, EstimatorState.initial(), NEVER_STOP));

        assertThat(failure).hasCause(broken).hasMessageContaining("batch 3 failed");
        TimeboxReport partial = failure.partialReport();
        assertThat(partial.batches()).isEqualTo(2);
        assertThat(partial.items()).isEqualTo(5 + 8);
        assertThat(partial.estimator().samples()).isEqualTo(2);
        assertThat(partial.endReason()).isEqualTo(EndReason.OPERATOR_FAILED);
    }

    @Test
    void interrupted_batch_should_leave_the_thread_interrupted() {
        BatchOperator operator = budget -> {
            throw new InterruptedException("shutdown");
        };

        try {
            catchThrowableOfType(BatchFailedException.class,
                    () -> timebox.runUntil(at(60_000), operator, EstimatorState.initial(), NEVER_STOP));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void operator_processing_more_than_its_budget_should_fail_the_run() {
        BatchOperator greedy = budget -> BatchResult.more(budget.maxItems() + 1);

        BatchFailedException failure = catchThrowableOfType(BatchFailedException.class,
                () -> timebox.runUntil(at(60_000), greedy, EstimatorState.initial(), NEVER_STOP));

        assertThat(failure).cause().isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("more than the 5 allowed");
    }
}
