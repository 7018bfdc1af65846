package dev.mailrun.scheduler;

/**
 * What a tick does with a task whose slot is late by at least its misfire threshold (the worker
 * was down, or a run outlasted several slots). Either way the task never fires once per missed slot.
 */
public enum MisfirePolicy {
    /** Run once now, for the latest slot that has started; record the skipped slots. */
    FIRE_ONCE_NOW,
    /** Do not run; record the skipped slots and wait for the first slot after now. */
    SKIP_TO_NEXT_SLOT
}
