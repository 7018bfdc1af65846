-- The run history is pruned by age (tick.run-history): find the oldest rows without a full scan.
CREATE INDEX ix_task_run_started ON task_run (started_at);
