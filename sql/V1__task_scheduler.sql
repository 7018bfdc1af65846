-- Scheduled tasks and their run history. Every timestamp is a UTC DATETIME(3); "now" in SQL is
-- always UTC_TIMESTAMP(3), never NOW(), so the session time zone cannot change any comparison.

CREATE TABLE task (
    id                   BIGINT        NOT NULL AUTO_INCREMENT,
    name                 VARCHAR(191)  NOT NULL,
    description          VARCHAR(1000) NOT NULL DEFAULT '',
    handler              VARCHAR(191)  NOT NULL,
    interval_ms          BIGINT        NOT NULL,
    misfire_policy       VARCHAR(32)   NOT NULL DEFAULT 'FIRE_ONCE_NOW',
    misfire_threshold_ms BIGINT        NULL,      -- NULL: one interval
    metadata             JSON          NOT NULL,
    error_log            JSON          NULL,      -- the last failure
    consecutive_failures INT           NOT NULL DEFAULT 0,
    last_started_at      DATETIME(3)   NULL,
    last_finished_at     DATETIME(3)   NULL,
    next_run_at          DATETIME(3)   NOT NULL,
    enabled              BOOLEAN       NOT NULL DEFAULT TRUE,
    -- the live run, all NULL when idle
    run_token            CHAR(36)      NULL,
    owner                VARCHAR(255)  NULL,
    scheduled_for        DATETIME(3)   NULL,
    started_at           DATETIME(3)   NULL,
    heartbeat_at         DATETIME(3)   NULL,
    lease_until          DATETIME(3)   NULL,
    created_at           DATETIME(3)   NOT NULL,
    updated_at           DATETIME(3)   NOT NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uq_task_name (name),
    KEY ix_task_due (enabled, next_run_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE task_run (
    id            BIGINT        NOT NULL AUTO_INCREMENT,
    task_id       BIGINT        NOT NULL,
    run_token     CHAR(36)      NULL,
    owner         VARCHAR(255)  NOT NULL,
    scheduled_for DATETIME(3)   NULL,
    started_at    DATETIME(3)   NOT NULL,
    finished_at   DATETIME(3)   NULL,
    deadline      DATETIME(3)   NULL,
    -- running, succeeded, failed, abandoned, misfired, skipped_overlap, stopped
    outcome       VARCHAR(32)   NOT NULL,
    summary       JSON          NULL,
    batches       INT           NULL,
    items         BIGINT        NULL,
    utilisation   DOUBLE        NULL,
    overrun_ms    BIGINT        NULL,
    error         TEXT          NULL,
    PRIMARY KEY (id),
    UNIQUE KEY uq_task_run_token (run_token),
    KEY ix_task_run_task (task_id, started_at),
    CONSTRAINT fk_task_run_task FOREIGN KEY (task_id) REFERENCES task (id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
