-- When an operator's action (campaign start, resume) last set a task's next_run_at, by the
-- scheduler's clock. Such a slot may already have begun: a campaign started mid-slot runs in the
-- rest of that slot when a tick comes within it. A worker ticks only at slot boundaries, so the
-- slots that began before this instant were never passed over by a tick; the next tick runs the
-- task for its own slot without recording them as missed (docs/SCHEDULER.md, "Misfire").
-- NULL once the scheduler sets the schedule itself (a run's finish).

ALTER TABLE task ADD COLUMN next_run_set_at DATETIME(3) NULL AFTER next_run_at;
