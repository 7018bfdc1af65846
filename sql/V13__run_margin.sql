-- What each run's window looked like at its start: how long its tick waited for the previous run to
-- release the task (the bounded wait at the slot), the safety margin its deadline used (derived from
-- measurements, at most tick.safety-margin), and the gap since the previous run released the task
-- (database clock: started_at minus the previous finish). NULL on rows written before they existed
-- and on rows that record a decision rather than a run.
ALTER TABLE task_run
    ADD COLUMN waited_ms BIGINT NULL AFTER overrun_ms,
    ADD COLUMN margin_ms BIGINT NULL AFTER waited_ms,
    ADD COLUMN gap_ms    BIGINT NULL AFTER margin_ms;
