-- Which event types the configured endpoints take (docs/EVENTS.md, "Outbox"): an event is written to
-- event_outbox only when some endpoint takes its type, read in the transaction that writes it. The
-- worker's dispatcher replaces the rows with its configuration's endpoints when it starts (none
-- configured: no rows, and nothing is written). One row per endpoint and concrete type: the
-- endpoint's events.<name>.types expanded over the types this version writes.

CREATE TABLE event_subscription (
    endpoint VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    type     VARCHAR(40) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
    PRIMARY KEY (endpoint, type),
    KEY ix_event_subscription_type (type)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_unicode_ci;
