package dev.mailrun.timebox;

import static dev.mailrun.timebox.TimeboxFixtures.T0;
import static dev.mailrun.timebox.TimeboxFixtures.at;
import static dev.mailrun.timebox.TimeboxFixtures.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mailrun.testing.SettableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BatchBudgetTest {

    private static final Duration RESERVE = ms(10);
    private static final Duration PER_ITEM = ms(20);
    private static final Duration MIN_TIMEOUT = ms(5);

    private final SettableClock clock = new SettableClock(T0);
    private final BatchBudget budget = new RunBudget(clock, at(1000), 20, RESERVE, PER_ITEM, MIN_TIMEOUT);

    @Test
    void timeout_should_never_exceed_the_remaining_time_while_it_is_above_the_floor() {
        Duration wanted = Duration.ofSeconds(30);
        for (long now = 0; now <= 1000 - MIN_TIMEOUT.toMillis(); now++) {
            clock.set(at(now));

            assertThat(budget.timeoutFor(wanted)).isEqualTo(budget.remaining()).isEqualTo(ms(1000 - now));
            assertThat(budget.itemTimeoutFor(wanted)).isLessThanOrEqualTo(budget.remaining());
        }
    }

    @Test
    void timeout_should_never_exceed_what_was_wanted() {
        assertThat(budget.timeoutFor(ms(200))).isEqualTo(ms(200));
        assertThat(budget.itemTimeoutFor(ms(2))).isEqualTo(ms(2));
    }

    @Test
    void timeout_should_be_floored_at_the_minimum_so_it_never_reads_as_wait_forever() {
        clock.set(at(1500));

        assertThat(budget.remaining()).isEqualTo(Duration.ZERO);
        assertThat(budget.timeoutFor(Duration.ofSeconds(30))).isEqualTo(MIN_TIMEOUT);
        assertThat(budget.itemTimeoutFor(Duration.ofSeconds(30))).isEqualTo(MIN_TIMEOUT);
    }

    @Test
    void item_timeout_should_leave_the_commit_reserve_free() {
        clock.set(at(900));

        assertThat(budget.itemTimeoutFor(Duration.ofSeconds(30))).isEqualTo(ms(90));
    }

    @Test
    void timeout_should_reject_a_wanted_duration_that_is_not_positive() {
        assertThatThrownBy(() -> budget.timeoutFor(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("wanted timeout must be positive, was PT0S");
    }

    @Test
    void budget_should_have_time_for_another_item_only_while_the_item_its_minimum_timeout_and_the_commit_reserve_fit() {
        // 1000 - 10 reserve - 20 per item - 5 minimum timeout
        clock.set(at(965));
        assertThat(budget.hasTimeForAnotherItem()).isTrue();

        clock.set(at(966));
        assertThat(budget.hasTimeForAnotherItem()).isFalse();
    }

    @Test
    void item_that_the_budget_admits_should_get_a_timeout_that_ends_before_the_commit_reserve() {
        Duration wanted = Duration.ofSeconds(30);
        for (long now = 0; now <= 1100; now++) {
            clock.set(at(now));
            if (budget.hasTimeForAnotherItem()) {
                assertThat(clock.instant().plus(budget.itemTimeoutFor(wanted)))
                        .isBeforeOrEqualTo(budget.deadline().minus(RESERVE));
            }
        }
    }
}
