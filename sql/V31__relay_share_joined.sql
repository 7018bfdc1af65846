-- When a holder finished joining its share: it counted then every run's tail (pace_tail, joiner '')
-- written before. A later joiner leaves those tails to the holders that counted them — their
-- handovers carry what their lowered paces no longer hold — instead of counting them a second time
-- against its own share. NULL: still joining, or counted nothing (a worker of an older version).
ALTER TABLE relay_share ADD COLUMN joined_at DATETIME(3) NULL;
