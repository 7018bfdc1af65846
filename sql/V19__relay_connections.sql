-- How each sending run's SMTP pool is sized, written with its relay-share renewal every second:
-- connections open, the count it sizes itself to, the count the rate needs at the measured time per
-- message, its ceiling, that time, and the rate it sends at. campaign status sums the live rows of
-- a relay to say when connections, not the rate, hold sending back. NULL: not reported yet.
ALTER TABLE relay_share
    ADD COLUMN connections_open    INT    NULL,
    ADD COLUMN connections_target  INT    NULL,
    ADD COLUMN connections_needed  INT    NULL,
    ADD COLUMN connections_ceiling INT    NULL,
    ADD COLUMN message_ms          INT    NULL,
    ADD COLUMN send_rate           DOUBLE NULL;

-- A relay's own limit on connections, learned when it refused one as too many: every worker's
-- pools to the relay keep to it in total. It lapses 30 minutes after it was last lowered (judged
-- by the database clock), so that a relay whose limit was raised is used in full again.
CREATE TABLE relay_connection_limit (
    relay      VARCHAR(255) NOT NULL,
    ceiling    INT          NOT NULL,
    lowered_at DATETIME(3)  NOT NULL,
    reply      VARCHAR(500) NOT NULL,
    PRIMARY KEY (relay)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- What a run sent to each paced domain group in its last second, written when it releases its
-- shares: the next run (of any campaign, on any worker) starts the group's count from these sends
-- instead of either ignoring them (a burst over the cap at every run boundary) or assuming a full
-- second was sent (a second lost at every run boundary). ages_ms: milliseconds before written_at,
-- comma-separated. Rows older than a minute are deleted when a run writes.
CREATE TABLE pace_tail (
    name       VARCHAR(255)  NOT NULL,
    holder     CHAR(36)      NOT NULL,
    ages_ms    VARCHAR(8000) NOT NULL,
    written_at DATETIME(3)   NOT NULL,
    PRIMARY KEY (name, holder),
    KEY ix_pace_tail_written (written_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
