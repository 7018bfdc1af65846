-- Campaigns, their recipient queue, and the global suppression list.

CREATE TABLE campaign (
    id               BIGINT        NOT NULL AUTO_INCREMENT,
    name             VARCHAR(200)  NOT NULL,
    template         VARCHAR(100)  NOT NULL,
    from_address     VARCHAR(254)  NOT NULL,
    from_name        VARCHAR(200)  NULL,
    reply_to         VARCHAR(254)  NULL,
    subject_override VARCHAR(500)  NULL,
    -- draft, scheduled, running, paused, completed, cancelled
    status           VARCHAR(16)   NOT NULL,
    start_at         DATETIME(3)   NULL,
    rate_cap         DOUBLE        NULL,      -- messages/s for this campaign; NULL: the relay's rate
    pause_reason     VARCHAR(1000) NULL,
    task_id          BIGINT        NULL,      -- the scheduler task that drains it
    created_at       DATETIME(3)   NOT NULL,
    updated_at       DATETIME(3)   NOT NULL,
    PRIMARY KEY (id),
    KEY ix_campaign_status (status)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE recipient (
    id              BIGINT        NOT NULL AUTO_INCREMENT,
    campaign_id     BIGINT        NOT NULL,
    -- trimmed, domain lower-cased and in punycode; compared byte for byte
    email           VARCHAR(254)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    name            VARCHAR(200)  NULL,
    fields          JSON          NULL,       -- merge fields from the imported columns
    -- pending, sending, sent, retry, failed, suppressed, unknown
    status          VARCHAR(16)   NOT NULL,
    attempts        INT           NOT NULL DEFAULT 0,
    -- NULL for pending rows so that pending rows are read in id order straight off the index
    next_attempt_at DATETIME(3)   NULL,
    last_code       SMALLINT      NULL,
    last_error      VARCHAR(1000) NULL,
    sent_at         DATETIME(3)   NULL,
    message_id      VARCHAR(255)  NULL,
    run_token       CHAR(36)      NULL,       -- the run holding it while status = 'sending'
    import_id       CHAR(36)      NULL,
    import_line     BIGINT        NULL,
    updated_at      DATETIME(3)   NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uq_recipient_email (campaign_id, email),
    -- claim: (campaign, 'pending', NULL) in id order, or (campaign, 'retry', due) by due time;
    -- either way the claim reads only the rows it returns
    KEY ix_recipient_claim (campaign_id, status, next_attempt_at, id),
    KEY ix_recipient_run (run_token),
    CONSTRAINT fk_recipient_campaign FOREIGN KEY (campaign_id) REFERENCES campaign (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE suppression (
    -- the whole address lower-cased: a suppression matches regardless of case
    address    VARCHAR(254)  CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    -- unsubscribed, hard_bounce, complaint, manual
    reason     VARCHAR(16)   NOT NULL,
    source     VARCHAR(500)  NOT NULL,
    created_at DATETIME(3)   NOT NULL,
    PRIMARY KEY (address)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

-- Workers sending through one relay each hold a share row; a worker's rate is the relay's rate
-- divided by the number of live shares, so the relay's limit holds in total.
CREATE TABLE relay_share (
    relay      VARCHAR(255)  NOT NULL,
    holder     CHAR(36)      NOT NULL,        -- the run token of the sending run
    expires_at DATETIME(3)   NOT NULL,
    PRIMARY KEY (relay, holder),
    KEY ix_relay_share_live (relay, expires_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
