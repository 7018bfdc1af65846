-- Events out (docs/EVENTS.md): what mailrun learns about recipients and campaigns, written to an
-- outbox in the same transaction as the change it reports, then delivered to the operator's
-- endpoints (events.endpoints) by the worker's dispatcher.
--
-- event_outbox   one row per event, written by the transaction that made the change; never updated
--                but for fanned_out. seq orders delivery (per recipient it follows the order of
--                the changes); event_id is the id receivers deduplicate by.
-- event_delivery one row per event and endpoint whose types take it: pending until delivered,
--                failed (a permanent refusal, with the reply) or discarded (by an operator).
-- event_endpoint each endpoint's delivery state: the lease that lets one worker at a time deliver
--                to it (judged by the database clock), its back-off, and whether it is disabled.
-- event_audit    operators' discards, replays and re-enables: who, why, how many.

CREATE TABLE event_outbox (
    seq          BIGINT       NOT NULL AUTO_INCREMENT,
    event_id     CHAR(36)     CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    type         VARCHAR(40)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    campaign_id  BIGINT       NULL,
    recipient_id BIGINT       NULL,
    -- the address the event is about (the suppression key for suppressions); NULL for campaign events
    email        VARCHAR(254) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    occurred_at  DATETIME(3)  NOT NULL,
    -- the type's own fields, a JSON object
    data         TEXT         NULL,
    -- 0 until the dispatcher has made its event_delivery rows
    fanned_out   TINYINT(1)   NOT NULL DEFAULT 0,
    PRIMARY KEY (seq),
    UNIQUE KEY uq_event_outbox_id (event_id),
    KEY ix_event_outbox_fan (fanned_out, seq),
    KEY ix_event_outbox_time (occurred_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE event_delivery (
    endpoint   VARCHAR(32)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    seq        BIGINT        NOT NULL,
    -- pending, delivered, failed, discarded
    status     VARCHAR(12)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    attempts   INT           NOT NULL DEFAULT 0,
    created_at DATETIME(3)   NOT NULL,
    done_at    DATETIME(3)   NULL,
    last_reply VARCHAR(1000) NULL,
    PRIMARY KEY (endpoint, seq),
    KEY ix_event_delivery_status (endpoint, status, seq),
    CONSTRAINT fk_event_delivery_event FOREIGN KEY (seq) REFERENCES event_outbox (seq) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE event_endpoint (
    name            VARCHAR(32)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    lease_token     CHAR(36)      CHARACTER SET ascii COLLATE ascii_bin NULL,
    lease_until     DATETIME(3)   NULL,
    -- back-off after a failed attempt: no attempt before this (the workers' clock)
    next_attempt_at DATETIME(3)   NULL,
    -- the first failure of the current run of failures; NULL while deliveries succeed
    failing_since   DATETIME(3)   NULL,
    failures        INT           NOT NULL DEFAULT 0,
    last_error      VARCHAR(1000) NULL,
    disabled_at     DATETIME(3)   NULL,
    PRIMARY KEY (name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;

CREATE TABLE event_audit (
    id       BIGINT        NOT NULL AUTO_INCREMENT,
    at       DATETIME(3)   NOT NULL,
    -- discard, replay, enable
    action   VARCHAR(12)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    endpoint VARCHAR(32)   CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    affected BIGINT        NOT NULL,
    actor    VARCHAR(200)  NOT NULL,
    why      VARCHAR(1000) NOT NULL,
    detail   VARCHAR(1000) NULL,
    PRIMARY KEY (id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
