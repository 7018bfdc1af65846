-- Scheduled tasks and their run history. Every timestamp is a UTC DATETIME(3); "now" in SQL is
-- always UTC_TIMESTAMP(3), never NOW(), so the session time zone cannot change any comparison.
-- The protocol these columns carry (claim, lease, heartbeat, run token) is described in
-- docs/SCHEDULER.md.

CREATE TABLE task (
    id                   BIGINT        NOT NULL AUTO_INCREMENT,
    name                 VARCHAR(191)  NOT NULL,
    description          VARCHAR(1000) NOT NULL DEFAULT '',
    handler              VARCHAR(191)  NOT NULL,
    interval_ms          BIGINT        NOT NULL,
    misfire_policy       VARCHAR(32)   NOT NULL DEFAULT 'FIRE_ONCE_NOW',
    misfire_threshold_ms BIGINT        NULL,      -- NULL: one interval
    metadata             JSON          NOT NULL,  -- handed to the handler, saved by checkpoints
    error_log            JSON          NULL,      -- the last failure: type, message, stackTrace, runToken, at
    consecutive_failures INT           NOT NULL DEFAULT 0,
    last_started_at      DATETIME(3)   NULL,      -- database clock
    last_finished_at     DATETIME(3)   NULL,      -- database clock
    next_run_at          DATETIME(3)   NOT NULL,  -- the next scheduled slot (scheduler clock)
    enabled              BOOLEAN       NOT NULL DEFAULT TRUE,
    -- the live run, all NULL when idle; every write of a run is conditional on run_token
    run_token            CHAR(36)      NULL,
    owner                VARCHAR(255)  NULL,      -- host/pid
    scheduled_for        DATETIME(3)   NULL,      -- the slot this run serves
    started_at           DATETIME(3)   NULL,      -- database clock
    heartbeat_at         DATETIME(3)   NULL,      -- database clock
    lease_until          DATETIME(3)   NULL,      -- database clock; expired when <= UTC_TIMESTAMP(3)
    created_at           DATETIME(3)   NOT NULL,
    updated_at           DATETIME(3)   NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uq_task_name (name),
    KEY ix_task_due (enabled, next_run_at),
    CONSTRAINT ck_task_interval CHECK (interval_ms > 0),
    CONSTRAINT ck_task_misfire_threshold CHECK (misfire_threshold_ms IS NULL OR misfire_threshold_ms > 0),
    CONSTRAINT ck_task_misfire_policy CHECK (misfire_policy IN ('FIRE_ONCE_NOW', 'SKIP_TO_NEXT_SLOT'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE task_run (
    id            BIGINT        NOT NULL AUTO_INCREMENT,
    task_id       BIGINT        NOT NULL,
    run_token     CHAR(36)      NULL,             -- NULL for rows that record a decision, not a run
    owner         VARCHAR(255)  NOT NULL,
    scheduled_for DATETIME(3)   NULL,
    started_at    DATETIME(3)   NOT NULL,         -- database clock
    finished_at   DATETIME(3)   NULL,             -- database clock
    deadline      DATETIME(3)   NULL,             -- scheduler clock: slot + interval - safety margin
    -- running, succeeded, failed, stopped, abandoned, misfired, skipped_overlap
    outcome       VARCHAR(32)   NOT NULL,
    summary       JSON          NULL,
    batches       BIGINT        NULL,
    items         BIGINT        NULL,
    utilisation   DOUBLE        NULL,
    overrun_ms    BIGINT        NULL,
    error         TEXT          NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uq_task_run_token (run_token),
    KEY ix_task_run_task (task_id, id),
    CONSTRAINT fk_task_run_task FOREIGN KEY (task_id) REFERENCES task (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
