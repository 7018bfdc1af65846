-- Several relays: the route a campaign sends through, the relay that took each recipient's message,
-- and each relay's state as every worker sees it.

-- The campaign's route (campaign create --relay), as primary:70,backup:30; NULL: the configured
-- default route (smtp.relays and the relays' weights), read when each run starts.
ALTER TABLE campaign ADD COLUMN relay_route VARCHAR(500) NULL;

-- The relay that took the recipient's last attempt (sent, deferred or refused): what bounces and the
-- providers' webhooks are attributed to. Written by the same batched statements that record results.
ALTER TABLE recipient ADD COLUMN relay VARCHAR(64) NULL;

-- One row per relay that was ever marked down. A relay without a row, or with down_until NULL, is up.
-- down_until and probe_until are instants of the worker's clock (a back-off, not a lease: a skew of a
-- few seconds moves a probe by as much and decides nothing else).
CREATE TABLE relay_state (
    relay        VARCHAR(64)   NOT NULL,
    down_until   DATETIME(3)   NULL,      -- NULL: up; otherwise no traffic before this instant, then one probe
    downs        INT           NOT NULL DEFAULT 0,   -- times marked down in a row: the back-off doubles with each
    reason       VARCHAR(1000) NULL,      -- why it was last marked down
    probe_holder CHAR(36)      NULL,      -- the run sending the one probe message, once down_until passed
    probe_until  DATETIME(3)   NULL,      -- after this another run may probe (the prober died)
    updated_at   DATETIME(3)   NOT NULL,
    PRIMARY KEY (relay)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
