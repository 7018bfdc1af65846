package dev.mailrun.scheduler;

import java.time.Duration;
import java.time.Instant;

/**
 * Slot arithmetic: misfires and backoff. Pure functions of the task's own slot and interval, so a
 * schedule never drifts with run length, and UTC arithmetic means daylight-saving changes cannot
 * skip or double a slot.
 */
final class Slots {

    private Slots() {}

    /** What a tick does with a due task. */
    record Plan(boolean run, Instant slot, long missedSlots, Instant firstMissed, Instant nextIfSkipped) {}

    /**
     * 1. Lateness = now − slot. Below the threshold the slot runs as scheduled.
     * 2. Otherwise it is a misfire. {@code latest} = the last slot that has started by now.
     * 3. FIRE_ONCE_NOW runs once for {@code latest}; the slots before it are recorded as missed.
     * 4. SKIP_TO_NEXT_SLOT runs nothing; every slot up to {@code latest} is missed and the task
     *    waits for {@code latest + interval}, the first slot after now.
     */
    static Plan plan(Instant slot, Duration interval, Duration threshold, MisfirePolicy policy, Instant now) {
        return plan(slot, interval, threshold, policy, now, null);
    }

    /**
     * {@link #plan(Instant, Duration, Duration, MisfirePolicy, Instant)} for a slot set at {@code setAt}
     * (an operator's action, null when the scheduler set it). A slot set after it began (a campaign
     * started mid-slot) runs in the rest of that slot when a tick comes within it; a worker ticks
     * only at slot boundaries, so once a later slot has begun the task runs from the first slot that
     * began after {@code setAt}: the ones before it were never passed over by a tick, nothing was missed.
     */
    static Plan plan(Instant slot, Duration interval, Duration threshold, MisfirePolicy policy, Instant now,
                     Instant setAt) {
        if (setAt != null && setAt.isAfter(slot)) {
            long intervalMs = interval.toMillis();
            long before = ceilDiv(Duration.between(slot, setAt).toMillis(), intervalMs);
            Instant firstTickable = slot.plusMillis(before * intervalMs);
            if (!firstTickable.isAfter(now)) {
                return planFrom(firstTickable, interval, threshold, policy, now);
            }
        }
        return planFrom(slot, interval, threshold, policy, now);
    }

    private static Plan planFrom(Instant slot, Duration interval, Duration threshold, MisfirePolicy policy,
                                 Instant now) {
        Duration lateness = Duration.between(slot, now);
        if (lateness.compareTo(threshold) < 0) {
            return new Plan(true, slot, 0, null, null);
        }
        long intervalMs = interval.toMillis();
        long behind = lateness.toMillis() / intervalMs;
        Instant latest = slot.plusMillis(behind * intervalMs);
        return switch (policy) {
            case FIRE_ONCE_NOW -> new Plan(true, latest, behind, slot, null);
            case SKIP_TO_NEXT_SLOT -> new Plan(false, latest, behind + 1, slot, latest.plus(interval));
        };
    }

    /**
     * The slot after the {@code failures}-th consecutive failure of the run for {@code slot}:
     * {@code slot + interval × min(2^(failures−1), ⌈maxBackoff / interval⌉)}. The first failure keeps
     * the normal schedule; each further one doubles the gap, up to about {@code maxBackoff}; the
     * result stays on the task's slot grid.
     */
    static Instant afterFailure(Instant slot, Duration interval, int failures, Duration maxBackoff) {
        long capSlots = Math.max(1, ceilDiv(maxBackoff.toMillis(), interval.toMillis()));
        long slots = failures <= 1 ? 1 : failures >= 62 ? capSlots : Math.min(1L << (failures - 1), capSlots);
        return slot.plusMillis(slots * interval.toMillis());
    }

    /** The least a run gets before its deadline; with less left in its slot it does not start. */
    static final Duration MIN_RUN = Duration.ofMillis(500);

    /**
     * {@code plan}, or — when it runs a slot with less than {@code marginBound} + {@link #MIN_RUN}
     * left (a tick late in the slot, a worker back near a slot's end) — the decision to run nothing
     * and wait for the next slot, that slot counted as missed. The deadline is the slot's end less a
     * margin of at most {@code marginBound}; a run started with less left could do nothing useful
     * and would finish after its deadline.
     */
    static Plan unlessTooShort(Plan plan, Duration interval, Duration marginBound, Instant now) {
        Instant end = plan.slot().plus(interval);
        if (!plan.run() || !now.plus(marginBound).plus(MIN_RUN).isAfter(end)) {
            return plan;
        }
        Instant first = plan.missedSlots() > 0 ? plan.firstMissed() : plan.slot();
        // The slot's end, or past it (a threshold above one interval) the first slot after now.
        long behind = Math.max(0, Duration.between(end, now).toMillis() / interval.toMillis() + (now.isBefore(end) ? 0 : 1));
        return new Plan(false, plan.slot(), plan.missedSlots() + 1, first, end.plusMillis(behind * interval.toMillis()));
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }
}
