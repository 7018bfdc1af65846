-- The run whose in-flight set a successor turned 'unknown': a run that lost its lease while it
-- was cut off from the database still holds the outcomes of the messages it sent, and records them
-- once it can, but only on rows still 'unknown' in its own name (docs/ARCHITECTURE.md, "Crash,
-- pause and restart"). Meaningful only while status = 'unknown'; a requeue leaves it, and the next
-- run that leaves the row unknown writes its own token over it.
--
-- Rows are found by primary key and this column is only compared, so it has no index. A nullable
-- column added last: an instant change on MariaDB 10.3+ and MySQL 8.0.12+.
ALTER TABLE recipient ADD COLUMN unknown_run CHAR(36) CHARACTER SET ascii COLLATE ascii_bin NULL;
