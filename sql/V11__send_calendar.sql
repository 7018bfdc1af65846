-- When a campaign may send, and until when: send windows, expiry and the relay's daily volume.

-- send_windows: the operator's ranges as given to campaign create --window, ';'-separated, each
--   "[days] HH:MM-HH:MM ZONE" (e.g. "Mon-Fri 08:00-18:00 Europe/Berlin"); NULL: any time.
--   Kept as text and parsed by the sender (campaign.model.SendWindows): a range keeps its own zone,
--   so it follows that zone's daylight-saving rules whatever the database's or worker's zone.
-- expire_at: once past, the recipients still waiting become 'expired' and the campaign completes.
-- recipient.status gains 'expired' (never sent; final), set in batches by the sending task.
ALTER TABLE campaign
    ADD COLUMN send_windows VARCHAR(1000) NULL,
    ADD COLUMN expire_at    DATETIME(3)   NULL;

-- Messages claimed through a relay per calendar day (policy.day-zone), shared by every worker: a
-- claim locks its relay's row for the day (SELECT … FOR UPDATE) and adds what it took in the same
-- transaction, so two workers cannot both take the last slots, and the count survives restarts.
-- Recipients handed back unsent are given back to the day they were claimed on.
CREATE TABLE daily_count (
    relay   VARCHAR(255) NOT NULL,
    day     DATE         NOT NULL,   -- the calendar day in policy.day-zone, not a UTC date
    claimed BIGINT       NOT NULL DEFAULT 0,
    PRIMARY KEY (relay, day)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
