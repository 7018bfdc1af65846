-- Sending policy: pacing by recipient domain and rates adapted to "too fast" replies.

-- The recipient's domain, for claims that pace domain groups. Stored addresses have their domain
-- lower-cased and in punycode, so the part after the last '@' is the domain as groups name it.
-- STORED, not VIRTUAL: the index below would otherwise evaluate the expression again on purge and
-- rollback for every row the queue updates. Claims of a paced group read
-- (campaign, domain, 'pending', NULL) in id order straight off the index, one domain at a time.
ALTER TABLE recipient
    ADD COLUMN domain VARCHAR(253) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin
        AS (SUBSTRING_INDEX(email, '@', -1)) STORED AFTER legacy_duplicate,
    ADD KEY ix_recipient_domain_claim (campaign_id, domain, status, next_attempt_at, id);

-- A rate lowered because the relay or a domain answered "too fast": shared by every worker and kept
-- across restarts. 'relay:<host:port>' or 'domain:<group>'. No row: the configured rate holds.
-- Written with the sending run's clock (a rate, not a lease: skew between workers only shifts when
-- it recovers).
CREATE TABLE adapted_rate (
    name          VARCHAR(255)  NOT NULL,
    rate          DOUBLE        NOT NULL,   -- messages/s in total, below the configured rate
    decreased_at  DATETIME(3)   NOT NULL,   -- the last halving; recovery waits a cool-down after it
    increased_at  DATETIME(3)   NOT NULL,   -- the last step up
    decreases     INT           NOT NULL,   -- halvings since the rate was last at its configured value
    reason        VARCHAR(500)  NOT NULL,   -- the reply that caused the last halving
    PRIMARY KEY (name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
