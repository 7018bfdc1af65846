package dev.mailrun.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SlotsTest {

    private static final Duration FIVE_MIN = Duration.ofMinutes(5);
    private static final Instant TEN = Instant.parse("2026-03-29T10:00:00Z");

    @Test
    void a_slot_late_by_less_than_the_threshold_runs_as_scheduled() {
        Slots.Plan plan = Slots.plan(TEN, FIVE_MIN, FIVE_MIN, MisfirePolicy.FIRE_ONCE_NOW, TEN.plusSeconds(299));
        assertThat(plan.run()).isTrue();
        assertThat(plan.slot()).isEqualTo(TEN);
        assertThat(plan.missedSlots()).isZero();
    }

    @Test
    void fire_once_now_runs_the_latest_started_slot_and_counts_the_ones_before_it_as_missed() {
        Slots.Plan plan = Slots.plan(TEN, FIVE_MIN, FIVE_MIN, MisfirePolicy.FIRE_ONCE_NOW, TEN.plus(Duration.ofMinutes(62)));
        assertThat(plan.run()).isTrue();
        assertThat(plan.slot()).isEqualTo(TEN.plus(Duration.ofMinutes(60)));
        assertThat(plan.missedSlots()).isEqualTo(12);
        assertThat(plan.firstMissed()).isEqualTo(TEN);
    }

    @Test
    void skip_to_next_slot_runs_nothing_and_waits_for_the_first_slot_after_now() {
        Slots.Plan plan = Slots.plan(TEN, FIVE_MIN, FIVE_MIN, MisfirePolicy.SKIP_TO_NEXT_SLOT, TEN.plus(Duration.ofMinutes(60)));
        assertThat(plan.run()).isFalse();
        assertThat(plan.missedSlots()).isEqualTo(13);
        assertThat(plan.nextIfSkipped()).isEqualTo(TEN.plus(Duration.ofMinutes(65)));
    }

    @Test
    void consecutive_failures_double_the_gap_up_to_the_cap_and_stay_on_the_slot_grid() {
        Duration cap = Duration.ofHours(1);
        assertThat(Slots.afterFailure(TEN, FIVE_MIN, 1, cap)).isEqualTo(TEN.plus(Duration.ofMinutes(5)));
        assertThat(Slots.afterFailure(TEN, FIVE_MIN, 2, cap)).isEqualTo(TEN.plus(Duration.ofMinutes(10)));
        assertThat(Slots.afterFailure(TEN, FIVE_MIN, 3, cap)).isEqualTo(TEN.plus(Duration.ofMinutes(20)));
        assertThat(Slots.afterFailure(TEN, FIVE_MIN, 4, cap)).isEqualTo(TEN.plus(Duration.ofMinutes(40)));
        assertThat(Slots.afterFailure(TEN, FIVE_MIN, 5, cap)).isEqualTo(TEN.plus(Duration.ofMinutes(60)));
        assertThat(Slots.afterFailure(TEN, FIVE_MIN, 500, cap)).isEqualTo(TEN.plus(Duration.ofMinutes(60)));
        assertThat(Slots.afterFailure(TEN, Duration.ofMinutes(7), 9, cap)).isEqualTo(TEN.plus(Duration.ofMinutes(63)));
        assertThat(Slots.afterFailure(TEN, Duration.ofHours(2), 9, cap)).isEqualTo(TEN.plus(Duration.ofHours(2)));
    }

    @Test
    void slots_across_a_daylight_saving_change_are_neither_skipped_nor_doubled() {
        // 01:00 UTC on 2026-03-29 is when Europe moves its clocks forward; UTC slots do not care.
        Instant beforeChange = Instant.parse("2026-03-29T00:55:00Z");
        Slots.Plan plan = Slots.plan(beforeChange.plus(FIVE_MIN), FIVE_MIN, FIVE_MIN, MisfirePolicy.FIRE_ONCE_NOW,
                Instant.parse("2026-03-29T01:00:00Z"));
        assertThat(plan.run()).isTrue();
        assertThat(plan.slot()).isEqualTo(Instant.parse("2026-03-29T01:00:00Z"));
        assertThat(plan.missedSlots()).isZero();
    }

    @Test
    void a_slot_with_less_than_the_margin_bound_and_the_minimum_run_left_is_given_up_for_the_next() {
        Duration bound = Duration.ofSeconds(15);
        Instant oneSecondBeforeTheEnd = TEN.plus(FIVE_MIN).minusSeconds(1);
        Slots.Plan late = Slots.plan(TEN, FIVE_MIN, FIVE_MIN, MisfirePolicy.FIRE_ONCE_NOW, oneSecondBeforeTheEnd);

        Slots.Plan plan = Slots.unlessTooShort(late, FIVE_MIN, bound, oneSecondBeforeTheEnd);

        assertThat(plan.run()).isFalse();
        assertThat(plan.missedSlots()).isEqualTo(1);
        assertThat(plan.firstMissed()).isEqualTo(TEN);
        assertThat(plan.nextIfSkipped()).isEqualTo(TEN.plus(FIVE_MIN));
        Instant enough = TEN.plus(FIVE_MIN).minus(bound).minus(Slots.MIN_RUN);
        assertThat(Slots.unlessTooShort(Slots.plan(TEN, FIVE_MIN, FIVE_MIN, MisfirePolicy.FIRE_ONCE_NOW, enough),
                FIVE_MIN, bound, enough).run()).as("exactly enough left").isTrue();
    }

    @Test
    void a_worker_back_near_the_end_of_a_slot_counts_that_slot_with_the_ones_it_missed() {
        Instant now = TEN.plus(Duration.ofMinutes(64)).plusSeconds(55);
        Slots.Plan plan = Slots.unlessTooShort(Slots.plan(TEN, FIVE_MIN, FIVE_MIN, MisfirePolicy.FIRE_ONCE_NOW, now),
                FIVE_MIN, Duration.ofSeconds(15), now);
        assertThat(plan.run()).isFalse();
        assertThat(plan.missedSlots()).isEqualTo(13);
        assertThat(plan.firstMissed()).isEqualTo(TEN);
        assertThat(plan.nextIfSkipped()).isEqualTo(TEN.plus(Duration.ofMinutes(65)));
    }
}
